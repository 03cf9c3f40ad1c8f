import { route } from "@/lib/api/route";
import { resetPassword } from "@/lib/auth/reset-password";
import { ContinueAnswer, ResetPasswordBody } from "@/lib/auth/schemas";

// POST /api/identity/reset-password - set a new password with a reset link
export const POST = route({ auth: "public", body: ResetPasswordBody, response: ContinueAnswer }, ({ body }) =>
  resetPassword(body),
);
