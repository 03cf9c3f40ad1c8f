import "server-only";
import { insertUser } from "@/db/queries/users";
import { tenantOf } from "@/lib/apps/tenant";
import { isValidEmail, normalizeEmail } from "@/lib/email/address";
import { AppError } from "@/lib/errors";
import { reserveSignupAttempt } from "@/lib/security/rate-limit";
import { hashPassword, isWeakPassword } from "./password";
import type { SignUpAnswer } from "./schemas";

export type SignUpInput = { email: string; password: string; appId?: string };

/**
 * Creates a user with a password. The verification mail is sent by /auth/verifyEmail, where
 * proxy.ts sends every unverified builder (POST /api/identity/send-verification-email).
 */
export async function signUp(input: SignUpInput, ip: string): Promise<SignUpAnswer> {
  const email = normalizeEmail(input.email);
  if (!isValidEmail(email)) throw new AppError("BAD_REQUEST", "emailInvalid", "auth/invalid-email");
  if (isWeakPassword(input.password))
    throw new AppError("BAD_REQUEST", "passwordTooWeak", "auth/weak-password");
  const tenantId = await tenantOf(input.appId);
  // 'already in use' tells whether an address exists: limited per IP like failed logins.
  const attempt = await reserveSignupAttempt(ip);
  const user = await insertUser({ tenantId, email, passwordHash: await hashPassword(input.password) });
  if (!user) throw new AppError("CONFLICT", "emailInUseSignup", "auth/email-already-exists");
  await attempt.succeeded();
  return { userId: user.id };
}
