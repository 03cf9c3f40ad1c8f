import { route } from "@/lib/api/route";
import { OobCodeBody, VerifyEmailAnswer } from "@/lib/auth/schemas";
import { applyVerifyEmail } from "@/lib/auth/verify-email";

// POST /api/identity/verify-email - apply an emailed verification link
export const POST = route({ auth: "public", body: OobCodeBody, response: VerifyEmailAnswer }, ({ body }) =>
  applyVerifyEmail(body.oobCode),
);
