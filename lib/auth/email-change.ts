import "server-only";
import { isUniqueViolation } from "@/db/client";
import { consumeAuthCodeByToken, insertAuthCode } from "@/db/queries/auth-codes";
import { findUserByEmail, findUserById, updateUser } from "@/db/queries/users";
import { EMAIL_LINK_TTL_S } from "@/lib/constants";
import { isValidEmail, normalizeEmail } from "@/lib/email/address";
import { sendMail } from "@/lib/email/send";
import { actionLink, changeEmailMail } from "@/lib/email/templates";
import { AppError } from "@/lib/errors";
import { queueAuthMail, queueAuthNotice } from "@/lib/queue/enqueue";
import { hashSecret, randomToken } from "@/lib/security/codes-crypto";
import { assertMailSendAllowed, reserveEmailChangeAttempt } from "@/lib/security/rate-limit";
import { userWithCurrentPassword } from "./current-password";
import type { EmailAnswer, SentAnswer } from "./schemas";
import type { Session } from "./session";

const inUse = () => new AppError("CONFLICT", "emailInUse", "auth/email-already-exists");

/** Step 1 (settings): the current password proves it's you; a link goes to the new address. */
export async function requestEmailChange(
  session: Session,
  input: { newEmail: string; currentPassword: string },
  ip: string,
): Promise<SentAnswer> {
  const newEmail = normalizeEmail(input.newEmail);
  if (!isValidEmail(newEmail)) throw new AppError("BAD_REQUEST", "emailInvalid", "auth/invalid-email");
  const user = await userWithCurrentPassword(session.userId, input.currentPassword, ip);
  // 'already in use' tells whether an address exists: limited like failed logins.
  const lookup = await reserveEmailChangeAttempt(user.id);
  if (newEmail === user.email || (await findUserByEmail(user.tenantId, newEmail))) throw inUse();
  await lookup.succeeded();
  await assertMailSendAllowed("change-email", newEmail, ip);
  await queueAuthMail({ kind: "email-change", userId: user.id, newEmail }, "emailChangeFailed");
  return { sent: true };
}

/** The job: the confirmation link, to the new address, for the user's current one. */
export async function deliverEmailChangeMail(job: { userId: string; newEmail: string }) {
  const user = await findUserById(job.userId);
  if (!user) return;
  const token = randomToken();
  await insertAuthCode({
    purpose: "change_email",
    userId: user.id,
    tenantId: user.tenantId,
    email: user.email,
    newEmail: job.newEmail,
    tokenHash: hashSecret(token),
    expiresAt: new Date(Date.now() + EMAIL_LINK_TTL_S * 1000),
  });
  const link = actionLink({ mode: "verifyAndChangeEmail", oobCode: token, newEmail: job.newEmail });
  await sendMail(changeEmailMail(job.newEmail, link));
}

/** Step 2 (the emailed link): completes the change once, if the address is still free. */
export async function completeEmailChange(input: {
  newEmail: string;
  oobCode: string;
}): Promise<EmailAnswer> {
  const newEmail = normalizeEmail(input.newEmail);
  const code = await consumeAuthCodeByToken("change_email", hashSecret(input.oobCode));
  const user = code?.userId ? await findUserById(code.userId) : undefined;
  if (!code || !user || code.newEmail !== newEmail || user.email !== code.email) {
    throw new AppError("BAD_REQUEST", "emailChangeFailed", "auth/invalid-action-code");
  }
  if (await findUserByEmail(user.tenantId, newEmail)) throw inUse();
  try {
    await updateUser(user.id, { email: newEmail, emailVerifiedAt: new Date() });
  } catch (err) {
    // The unique index catches a signup that took the address a moment ago.
    if (isUniqueViolation(err)) throw inUse();
    throw err;
  }
  // The old address hears of it, so a hijacked session can't move an account silently.
  await queueAuthNotice({ kind: "email-changed", oldEmail: user.email, newEmail });
  return { email: newEmail };
}
