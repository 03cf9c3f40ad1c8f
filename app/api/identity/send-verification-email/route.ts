import { route } from "@/lib/api/route";
import { SendVerificationBody, VerificationSentAnswer } from "@/lib/auth/schemas";
import { sendVerificationEmailFor } from "@/lib/auth/verify-email";

// POST /api/identity/send-verification-email - (re)send the verification link to the signed-in user
export const POST = route(
  // 429: too many mails to the address or from the caller
  { auth: "user", body: SendVerificationBody, response: VerificationSentAnswer, errors: [429] },
  ({ session, body, ip }) => sendVerificationEmailFor(session.userId, body, ip),
);
