import { route } from "@/lib/api/route";
import { SendVerificationBody } from "@/lib/auth/schemas";
import { sendVerificationEmailFor } from "@/lib/auth/verify-email";

// POST /api/identity/send-verification-email - (re)send the verification link to the signed-in user
export const POST = route({ auth: "user", body: SendVerificationBody }, ({ session, body, ip }) =>
  sendVerificationEmailFor(session.userId, body, ip),
);
