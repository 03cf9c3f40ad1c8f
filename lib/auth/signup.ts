import "server-only";
import { insertUser } from "@/db/queries/users";
import { AppError } from "@/lib/api/errors";
import { tenantOf } from "@/lib/apps/tenant";
import { logError } from "@/lib/log";
import { isValidEmail, normalizeEmail } from "./email-address";
import { hashPassword, isWeakPassword } from "./password";
import { sendVerificationEmail } from "./verify-email";

export type SignUpInput = {
  email: string;
  password: string;
  appId?: string;
  continueUrl?: string;
  appName?: string;
};

/** Creates a user with a password; builders get a verification mail straight away. */
export async function signUp(input: SignUpInput, ip: string) {
  const email = normalizeEmail(input.email);
  if (!isValidEmail(email)) throw new AppError("BAD_REQUEST", "emailInvalid", "auth/invalid-email");
  if (isWeakPassword(input.password))
    throw new AppError("BAD_REQUEST", "passwordTooWeak", "auth/weak-password");
  const tenantId = await tenantOf(input.appId);
  const user = await insertUser({ tenantId, email, passwordHash: await hashPassword(input.password) });
  if (!user) throw new AppError("CONFLICT", "emailInUseSignup", "auth/email-already-exists");
  if (tenantId === null) {
    // The account exists now; a mail that fails can be re-sent from the verify page.
    await sendVerificationEmail(user, { continueUrl: input.continueUrl, appName: input.appName }, ip).catch(
      (err) => logError("verification mail after signup failed", { userId: user.id, err }),
    );
  }
  return { userId: user.id };
}
