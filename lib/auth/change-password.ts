import "server-only";
import { db } from "@/db/client";
import { findUserById, updateUser } from "@/db/queries/users";
import { AppError } from "@/lib/api/errors";
import { reserveLoginAttempt } from "@/lib/security/rate-limit";
import { hashPassword, isWeakPassword, verifyPassword } from "./password";
import type { Session } from "./session";
import { endAllSessions } from "./sessions";

/**
 * A new password, with the current one as proof (limited like failed logins). Every other
 * session of the user ends: whoever else knew the old password is signed out.
 */
export async function changePassword(
  session: Session,
  input: { currentPassword: string; newPassword: string },
  ip: string,
): Promise<{ ok: true }> {
  const user = await findUserById(session.userId);
  if (!user) throw new AppError("UNAUTHENTICATED", "unauthenticated");
  const attempt = await reserveLoginAttempt(`${user.tenantId ?? "platform"}\n${user.email}`, ip);
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw new AppError("BAD_REQUEST", "currentPasswordWrong", "auth/wrong-password");
  }
  await attempt.succeeded();
  if (isWeakPassword(input.newPassword))
    throw new AppError("BAD_REQUEST", "passwordTooWeak", "auth/weak-password");
  const passwordHash = await hashPassword(input.newPassword);
  await db().transaction(async (tx) => {
    await updateUser(user.id, { passwordHash }, tx);
    await endAllSessions(user.id, session.sessionId, tx);
  });
  return { ok: true };
}
