import "server-only";
import { db } from "@/db/client";
import {
  consumeAuthCodeByToken,
  expireAuthCodes,
  findLiveAuthCodeByToken,
  insertAuthCode,
} from "@/db/queries/auth-codes";
import { revokeUserSessions } from "@/db/queries/sessions";
import { findUserByEmail, findUserById, updateUser } from "@/db/queries/users";
import { tenantOf } from "@/lib/apps/tenant";
import { EMAIL_LINK_TTL_S } from "@/lib/constants";
import { isValidEmail, normalizeEmail } from "@/lib/email/address";
import { sendMail } from "@/lib/email/send";
import { actionLink, resetPasswordMail } from "@/lib/email/templates";
import { appOrigin } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { logError } from "@/lib/log";
import { queueAuthMail } from "@/lib/queue/enqueue";
import { hashSecret, randomToken } from "@/lib/security/codes-crypto";
import { assertMailSendAllowed } from "@/lib/security/rate-limit";
import { safeRedirectPath } from "@/lib/security/redirects";
import { hashPassword, isWeakPassword } from "./password";
import type { ContinueAnswer, EmailAnswer, SentAnswer } from "./schemas";

export type SendResetInput = { email: string; mainAppId?: string | null; continueUrl?: string };

/**
 * Asks for a reset link. The answer, and the work behind it, are the same whether or not the
 * email has an account: one job is queued, and the job finds out (deliverResetMail).
 */
export async function sendResetPasswordEmail(input: SendResetInput, ip: string): Promise<SentAnswer> {
  const email = normalizeEmail(input.email);
  if (!isValidEmail(email)) throw new AppError("BAD_REQUEST", "emailInvalid", "auth/invalid-email");
  const tenantId = await tenantOf(input.mainAppId);
  await assertMailSendAllowed("reset", email, ip);
  const continueUrl = safeRedirectPath(input.continueUrl, appOrigin(), "/login");
  await queueAuthMail({ kind: "reset", email, tenantId, continueUrl }, "resetSendFailed");
  return { sent: true };
}

/** The job: a reset link, mailed only when the email belongs to an active user. */
export async function deliverResetMail(job: { email: string; tenantId: string | null; continueUrl: string }) {
  const user = await findUserByEmail(job.tenantId, job.email);
  if (!user || user.disabledAt) return;
  const token = randomToken();
  await insertAuthCode({
    purpose: "reset_password",
    userId: user.id,
    tenantId: job.tenantId,
    email: job.email,
    tokenHash: hashSecret(token),
    continueUrl: job.continueUrl,
    expiresAt: new Date(Date.now() + EMAIL_LINK_TTL_S * 1000),
  });
  const link = actionLink({ mode: "resetPassword", oobCode: token, continueUrl: job.continueUrl });
  await sendMail(resetPasswordMail(job.email, link));
}

const invalidLink = () => new AppError("BAD_REQUEST", "resetLinkInvalid", "auth/invalid-action-code");

/** Tells whether a reset link can still be used (the form is shown only then). */
export async function checkResetCode(oobCode: string): Promise<EmailAnswer> {
  const code = await findLiveAuthCodeByToken("reset_password", hashSecret(oobCode));
  if (!code) throw invalidLink();
  return { email: code.email };
}

/** Sets a new password with a reset link: once, and every older session ends. */
export async function resetPassword(input: {
  oobCode: string;
  newPassword: string;
}): Promise<ContinueAnswer> {
  if (isWeakPassword(input.newPassword)) {
    throw new AppError("BAD_REQUEST", "resetPasswordTooWeak", "auth/weak-password");
  }
  const tokenHash = hashSecret(input.oobCode);
  const live = await findLiveAuthCodeByToken("reset_password", tokenHash);
  if (!live) throw invalidLink();
  const user = live.userId ? await findUserById(live.userId) : undefined;
  if (!user || user.disabledAt) throw new AppError("BAD_REQUEST", "resetUserNotFound", "auth/user-not-found");
  const passwordHash = await hashPassword(input.newPassword);
  try {
    return await db().transaction(async (tx) => {
      const code = await consumeAuthCodeByToken("reset_password", tokenHash, tx);
      if (!code) throw invalidLink();
      // Following the link proves the address, so it also counts as verification.
      await updateUser(user.id, { passwordHash, emailVerifiedAt: user.emailVerifiedAt ?? new Date() }, tx);
      await revokeUserSessions(user.id, undefined, tx);
      await expireAuthCodes("reset_password", user.email, user.tenantId, tx);
      return { continueUrl: safeRedirectPath(code.continueUrl, appOrigin(), "/login") };
    });
  } catch (err) {
    if (err instanceof AppError) throw err;
    logError("reset password failed", { err });
    throw new AppError("INTERNAL", "resetError", "auth/reset-failed");
  }
}
