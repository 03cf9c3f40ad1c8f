import "server-only";
import { findAppById } from "@/db/queries/apps";
import { consumeAuthCodeByToken, findAuthCodeByToken, insertAuthCode } from "@/db/queries/auth-codes";
import { findUserById, updateUser } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { EMAIL_LINK_TTL_S } from "@/lib/constants";
import { sendMail } from "@/lib/email/send";
import { actionLink, verifyEmailMail } from "@/lib/email/templates";
import { appOrigin } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { queueAuthMail } from "@/lib/queue/enqueue";
import { hashSecret, randomToken } from "@/lib/security/codes-crypto";
import { assertMailSendAllowed } from "@/lib/security/rate-limit";
import { safeRedirectPath } from "@/lib/security/redirects";
import type { VerificationSentAnswer, VerifyEmailAnswer } from "./schemas";

/** Queues the verification mail of a signed-in user whose address is not verified yet. */
export async function sendVerificationEmail(
  user: Pick<User, "id" | "email" | "emailVerifiedAt">,
  opts: { continueUrl?: string },
  ip: string,
): Promise<VerificationSentAnswer> {
  if (user.emailVerifiedAt) return { alreadyVerified: true };
  await assertMailSendAllowed("verify", user.email, ip);
  const continueUrl = safeRedirectPath(opts.continueUrl, appOrigin());
  await queueAuthMail({ kind: "verify", userId: user.id, continueUrl }, "verificationSendFailed");
  return { alreadyVerified: false };
}

/** The job: the link, for the user's address as it is now (unless verified meanwhile). */
export async function deliverVerificationMail(job: { userId: string; continueUrl: string }) {
  const user = await findUserById(job.userId);
  if (!user || user.emailVerifiedAt) return;
  const token = randomToken();
  await insertAuthCode({
    purpose: "verify_email",
    userId: user.id,
    tenantId: user.tenantId,
    email: user.email,
    tokenHash: hashSecret(token),
    continueUrl: job.continueUrl,
    expiresAt: new Date(Date.now() + EMAIL_LINK_TTL_S * 1000),
  });
  const link = actionLink({ mode: "verifyEmail", oobCode: token, continueUrl: job.continueUrl });
  // Named by what we stored (the app's saved header), never by anything the caller sent.
  const app = user.tenantId ? await findAppById(user.tenantId) : undefined;
  await sendMail(verifyEmailMail(user.email, link, app?.header || undefined));
}

export async function sendVerificationEmailFor(userId: string, opts: { continueUrl?: string }, ip: string) {
  const user = await findUserById(userId);
  if (!user) throw new AppError("UNAUTHENTICATED", "unauthenticated");
  return sendVerificationEmail(user, opts, ip);
}

/**
 * Applies a verification link once; answers where to continue. Opened again (used, or even
 * expired since) for an address that is verified by now, it says so and continues the same way.
 */
export async function applyVerifyEmail(oobCode: string): Promise<VerifyEmailAnswer> {
  const tokenHash = hashSecret(oobCode);
  const fresh = await consumeAuthCodeByToken("verify_email", tokenHash);
  const code = fresh ?? (await findAuthCodeByToken("verify_email", tokenHash));
  const user = code?.userId ? await findUserById(code.userId) : undefined;
  // A link sent to an address the user has since changed verifies nothing.
  const forThisAddress = code && user && user.email === code.email;
  if (!forThisAddress || (!fresh && !user.emailVerifiedAt)) {
    throw new AppError("BAD_REQUEST", "verifyLinkInvalid", "auth/invalid-action-code");
  }
  const alreadyVerified = user.emailVerifiedAt !== null;
  if (!alreadyVerified) await updateUser(user.id, { emailVerifiedAt: new Date() });
  return { continueUrl: safeRedirectPath(code.continueUrl, appOrigin()), alreadyVerified };
}
