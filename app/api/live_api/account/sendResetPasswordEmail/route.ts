import { route } from "@/lib/api/route";
import { sendResetPasswordEmail } from "@/lib/auth/reset-password";
import { SendResetBody } from "@/lib/auth/schemas";

// POST /api/live_api/account/sendResetPasswordEmail - same answer whether or not the email exists
export const POST = route({ auth: "public", body: SendResetBody }, ({ body, ip }) =>
  sendResetPasswordEmail(body, ip),
);
