import "server-only";
import { db } from "@/db/client";
import { revokeUserSessions } from "@/db/queries/sessions";
import { updateUser } from "@/db/queries/users";
import { AppError } from "@/lib/errors";
import { userWithCurrentPassword } from "./current-password";
import { hashPassword, isWeakPassword } from "./password";
import type { Session } from "./session";

/**
 * A new password, with the current one as proof (limited like failed logins). Every other
 * session of the user ends: whoever else knew the old password is signed out.
 */
export async function changePassword(
  session: Session,
  input: { currentPassword: string; newPassword: string },
  ip: string,
): Promise<{ ok: true }> {
  const user = await userWithCurrentPassword(session.userId, input.currentPassword, ip);
  if (isWeakPassword(input.newPassword))
    throw new AppError("BAD_REQUEST", "passwordTooWeak", "auth/weak-password");
  const passwordHash = await hashPassword(input.newPassword);
  await db().transaction(async (tx) => {
    await updateUser(user.id, { passwordHash }, tx);
    await revokeUserSessions(user.id, session.sessionId, tx);
  });
  return { ok: true };
}
