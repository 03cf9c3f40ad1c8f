import { route } from "@/lib/api/route";
import { passwordSignInForApi } from "@/lib/auth/login";
import { PasswordSignInBody } from "@/lib/auth/schemas";

// POST /api/identity/sign-in-with-password - for API clients: opens a session, answers a bearer token
export const POST = route({ auth: "public", body: PasswordSignInBody }, ({ req, body, ip }) =>
  passwordSignInForApi(body, { userAgent: req.headers.get("user-agent"), ip }),
);
