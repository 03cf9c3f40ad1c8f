import "server-only";
import { findUserByEmail } from "@/db/queries/users";
import { AppError } from "@/lib/api/errors";
import { tenantOf } from "@/lib/apps/tenant";
import { assertLoginAllowed, recordLoginFailure, recordLoginSuccess } from "@/lib/security/rate-limit";
import { claimsFor } from "./claims";
import { isValidEmail, normalizeEmail } from "./email-address";
import { verifyPassword } from "./password";
import type { SessionClaims } from "./session-token";

export type PasswordLoginInput = { email: string; password: string; appId?: string };

const invalid = () => new AppError("UNAUTHENTICATED", "invalidCredentials", "auth/invalid-credential");

/**
 * Checks an email and password. Wrong password, unknown user and malformed email give the
 * same answer (and take about the same time), so the answer never tells whether an email exists.
 */
export async function passwordLogin(input: PasswordLoginInput, ip: string): Promise<SessionClaims> {
  const email = normalizeEmail(input.email);
  const tenantId = await tenantOf(input.appId);
  const throttleKey = `${tenantId ?? "platform"}:${email}`;
  await assertLoginAllowed(throttleKey, ip);
  const user = isValidEmail(email) ? await findUserByEmail(tenantId, email) : undefined;
  const ok = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user || !ok) {
    await recordLoginFailure(throttleKey, ip);
    throw invalid();
  }
  if (user.disabledAt) throw new AppError("FORBIDDEN", "userDisabled", "auth/user-disabled");
  await recordLoginSuccess(throttleKey);
  return claimsFor(user);
}
