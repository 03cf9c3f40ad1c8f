import { route } from "@/lib/api/route";
import { SignUpAnswer, SignUpBody } from "@/lib/auth/schemas";
import { signUp } from "@/lib/auth/signup";

// POST /api/identity/sign-up - create a user with email and password (builder, or end user of appId)
export const POST = route(
  // 404: no published app of appId; 409: the address is taken; 429: too many sign-ups refused
  { auth: "public", body: SignUpBody, response: SignUpAnswer, errors: [404, 409, 429] },
  ({ body, ip }) => signUp(body, ip),
);
