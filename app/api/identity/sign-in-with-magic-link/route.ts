import { route } from "@/lib/api/route";
import { signInWithMagicLink } from "@/lib/auth/magic-code";
import { OobCodeBody } from "@/lib/auth/schemas";

// POST /api/identity/sign-in-with-magic-link - exchange an emailed link for a custom token
export const POST = route({ auth: "public", body: OobCodeBody }, ({ body }) =>
  signInWithMagicLink(body.oobCode),
);
