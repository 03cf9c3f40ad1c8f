import { route } from "@/lib/api/route";
import { requestEmailChange } from "@/lib/auth/email-change";
import { RequestEmailChangeBody, SentAnswer } from "@/lib/auth/schemas";

// POST /api/identity/request-email-change - current password checked, confirmation link sent to the new email
export const POST = route(
  // 409: the address is taken; 429: too many wrong passwords, taken addresses or mails
  { auth: "user", body: RequestEmailChangeBody, response: SentAnswer, errors: [409, 429] },
  ({ session, body, ip }) => requestEmailChange(session, body, ip),
);
