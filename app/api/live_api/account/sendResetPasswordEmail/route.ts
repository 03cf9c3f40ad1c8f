import { route } from "@/lib/api/route";
import { sendResetPasswordEmail } from "@/lib/auth/reset-password";
import { SendResetBody, SentAnswer } from "@/lib/auth/schemas";

// POST /api/live_api/account/sendResetPasswordEmail - same answer whether or not the email exists
export const POST = route(
  // 404: no published app of mainAppId; 429: too many mails to the address or from the caller
  { auth: "public", body: SendResetBody, response: SentAnswer, errors: [404, 429] },
  ({ body, ip }) => sendResetPasswordEmail(body, ip),
);
