import { route } from "@/lib/api/route";
import { checkResetCode } from "@/lib/auth/reset-password";
import { EmailAnswer, OobCodeBody } from "@/lib/auth/schemas";

// POST /api/identity/check-reset-code - is this reset link still usable?
export const POST = route({ auth: "public", body: OobCodeBody, response: EmailAnswer }, ({ body }) =>
  checkResetCode(body.oobCode),
);
