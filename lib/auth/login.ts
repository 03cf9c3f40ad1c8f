import "server-only";
import { findUserByEmail } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { tenantOf } from "@/lib/apps/tenant";
import { isValidEmail, normalizeEmail } from "@/lib/email/address";
import { AppError } from "@/lib/errors";
import { reserveLoginAttempt } from "@/lib/security/rate-limit";
import { issueBearerToken } from "./bearer";
import { verifyPassword } from "./password";
import { type SessionMeta, startSession } from "./sessions";

export type PasswordLoginInput = { email: string; password: string; appId?: string };

const invalid = () => new AppError("UNAUTHENTICATED", "invalidCredentials", "auth/invalid-credential");

/**
 * Checks an email and password; answers the user. Wrong password, unknown user and malformed
 * email give the same answer (and take about the same time), so the answer never tells whether
 * an email exists. The attempt is reserved before the hash is checked.
 */
export async function passwordLogin(input: PasswordLoginInput, ip: string): Promise<User> {
  const email = normalizeEmail(input.email);
  const tenantId = await tenantOf(input.appId);
  const attempt = await reserveLoginAttempt(tenantId, email, ip);
  const user = isValidEmail(email) ? await findUserByEmail(tenantId, email) : undefined;
  const ok = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user || !ok) throw invalid();
  if (user.disabledAt) throw new AppError("FORBIDDEN", "userDisabled", "auth/user-disabled");
  await attempt.succeeded();
  return user;
}

/** Sign-in for API clients: a new session and its first bearer token. */
export async function passwordSignInForApi(input: PasswordLoginInput, meta: SessionMeta & { ip: string }) {
  const user = await passwordLogin(input, meta.ip);
  const { claims, expiresAt } = await startSession(user, meta);
  return issueBearerToken(claims, expiresAt);
}
