import { route } from "@/lib/api/route";
import { issueBearerToken } from "@/lib/auth/bearer";
import { passwordLogin } from "@/lib/auth/login";
import { PasswordSignInBody } from "@/lib/auth/schemas";

// POST /api/identity/sign-in-with-password - for API clients: answers a bearer token
export const POST = route({ auth: "public", body: PasswordSignInBody }, async ({ body, ip }) =>
  issueBearerToken(await passwordLogin(body, ip)),
);
