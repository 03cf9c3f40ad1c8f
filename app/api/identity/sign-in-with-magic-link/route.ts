import { route } from "@/lib/api/route";
import { signInWithMagicLink } from "@/lib/auth/magic-code";
import { MagicLinkSignInAnswer, OobCodeBody } from "@/lib/auth/schemas";

// POST /api/identity/sign-in-with-magic-link - exchange an emailed link for a custom token
export const POST = route(
  // 403: the user is disabled
  { auth: "public", body: OobCodeBody, response: MagicLinkSignInAnswer, errors: [403] },
  ({ body }) => signInWithMagicLink(body.oobCode),
);
