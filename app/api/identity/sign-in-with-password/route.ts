import { route } from "@/lib/api/route";
import { passwordSignInForApi } from "@/lib/auth/login";
import { BearerTokenAnswer, PasswordSignInBody } from "@/lib/auth/schemas";

// POST /api/identity/sign-in-with-password - for API clients: opens a session, answers a bearer token
export const POST = route(
  // 401: wrong email or password; 403: the user is disabled; 404: no published app of appId;
  // 429: too many failed sign-ins
  { auth: "public", body: PasswordSignInBody, response: BearerTokenAnswer, errors: [401, 403, 404, 429] },
  ({ req, body, ip }) => passwordSignInForApi(body, { userAgent: req.headers.get("user-agent"), ip }),
);
