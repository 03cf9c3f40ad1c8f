import "server-only";
import { db } from "@/db/client";
import { revokeUserSessions } from "@/db/queries/sessions";
import { findUserById, updateUser } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { sendMail } from "@/lib/email/send";
import { passwordRemovedMail } from "@/lib/email/templates";
import { appOrigin } from "@/lib/env";
import { queueAuthNotice } from "@/lib/queue/enqueue";

/**
 * The address of `user` was just proven by a code, a link or Google. A password set while the
 * address was unverified may be a stranger's who signed up with it first (account
 * pre-hijacking): it is removed and every earlier session ends, and the owner is told by mail.
 */
export async function markAddressProven(user: User): Promise<{ user: User; passwordRemoved: boolean }> {
  if (user.emailVerifiedAt) return { user, passwordRemoved: false };
  const passwordRemoved = user.passwordHash !== null;
  const updated = await db().transaction(async (tx) => {
    const row = await updateUser(
      user.id,
      { emailVerifiedAt: new Date(), ...(passwordRemoved ? { passwordHash: null } : {}) },
      tx,
    );
    if (passwordRemoved) await revokeUserSessions(user.id, undefined, tx);
    return row;
  });
  if (passwordRemoved) await queueAuthNotice({ kind: "password-removed", userId: user.id });
  return { user: updated ?? user, passwordRemoved };
}

/** The job: tells the owner by mail what happened to the password. */
export async function deliverPasswordRemovedMail(job: { userId: string }) {
  const user = await findUserById(job.userId);
  if (!user) return;
  const login = new URL(user.tenantId ? `/app/${user.tenantId}/login` : "/login", appOrigin()).toString();
  await sendMail(passwordRemovedMail(user.email, login));
}
