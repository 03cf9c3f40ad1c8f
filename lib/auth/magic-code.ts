import "server-only";
import { findAppById } from "@/db/queries/apps";
import {
  consumeAuthCodeByToken,
  expireAuthCodes,
  hasLiveMagicCode,
  insertAuthCode,
  markAuthCodeUsed,
  reserveMagicCodeAttempt,
} from "@/db/queries/auth-codes";
import { findUserByEmail, insertUser } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { requirePublishedApp } from "@/lib/apps/tenant";
import { MAGIC_CODE_MAX_ATTEMPTS, MAGIC_CODE_TTL_S, MAGIC_CODES_LIVE_PER_ADDRESS } from "@/lib/constants";
import { isValidEmail, normalizeEmail } from "@/lib/email/address";
import { sendMail } from "@/lib/email/send";
import { actionLink, magicCodeMail } from "@/lib/email/templates";
import { appOrigin } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { messages } from "@/lib/messages";
import { queueAuthMail } from "@/lib/queue/enqueue";
import { hashSecret, randomSixDigitCode, randomToken, safeEqual } from "@/lib/security/codes-crypto";
import { assertMailSendAllowed, reserveCodeAttempt } from "@/lib/security/rate-limit";
import { safeRedirectPath } from "@/lib/security/redirects";
import { createCustomToken } from "./custom-token";
import { markAddressProven } from "./prove-address";
import type { CustomTokenAnswer, MagicLinkSignInAnswer, SentAnswer } from "./schemas";

/**
 * Mails a 6-digit code and a sign-in link for an app. Older codes stay valid until they expire
 * (the newest few are accepted), so a stranger asking for codes cannot void the owner's.
 */
export async function sendMagicCode(
  appId: string,
  input: { email: string; continueUrl?: string },
  ip: string,
): Promise<SentAnswer> {
  const app = await requirePublishedApp(appId);
  const email = normalizeEmail(input.email);
  if (!isValidEmail(email)) throw new AppError("BAD_REQUEST", "magicEmailInvalid", "auth/invalid-email");
  await assertMailSendAllowed(`magic:${app.id}`, email, ip);
  const continueUrl = safeRedirectPath(input.continueUrl, appOrigin(), `/app/${app.id}`);
  // The job makes the code: the answer is the same whether or not the address has an account.
  await queueAuthMail({ kind: "magic-code", appId: app.id, email, continueUrl }, "magicSendFailed");
  return { sent: true as const };
}

/** The job: a fresh code and link, for an app that is still published. */
export async function deliverMagicCode(job: { appId: string; email: string; continueUrl: string }) {
  const app = await findAppById(job.appId);
  if (app?.status !== "active") return;
  const token = randomToken();
  const code = randomSixDigitCode();
  await insertAuthCode({
    purpose: "magic_code",
    tenantId: app.id,
    email: job.email,
    tokenHash: hashSecret(token),
    codeHash: hashSecret(`${app.id}:${code}`),
    continueUrl: job.continueUrl,
    expiresAt: new Date(Date.now() + MAGIC_CODE_TTL_S * 1000),
  });
  const link = actionLink({ mode: "signIn", oobCode: token, appId: app.id, continueUrl: job.continueUrl });
  await sendMail(magicCodeMail(job.email, code, link, app.header || "the app"));
}

const attemptsExceeded = () => new AppError("ATTEMPTS_EXCEEDED", "otpAttemptsExceeded", "ATTEMPTS_EXCEEDED");
const invalidCode = () => new AppError("BAD_REQUEST", "otpInvalid", "INVALID_CODE");

/**
 * Checks a typed code against the newest live codes of the address; five wrong guesses kill a
 * code. The attempt is reserved on the codes before comparing, so a burst of guesses never gets
 * more than five compared. Answers a custom token for sign-in.
 */
export async function validateOtp(
  appId: string,
  input: { email: string; otp: string },
  ip: string,
): Promise<CustomTokenAnswer> {
  const app = await requirePublishedApp(appId);
  const email = normalizeEmail(input.email);
  const attempt = await reserveCodeAttempt(ip);
  const codes = await reserveMagicCodeAttempt(
    app.id,
    email,
    MAGIC_CODE_MAX_ATTEMPTS,
    MAGIC_CODES_LIVE_PER_ADDRESS,
  );
  if (codes.length === 0) throw (await hasLiveMagicCode(app.id, email)) ? attemptsExceeded() : invalidCode();
  const typed = hashSecret(`${app.id}:${input.otp.trim()}`);
  const match = codes.find((c) => c.codeHash !== null && safeEqual(c.codeHash, typed));
  if (!match)
    throw codes.every((c) => c.attempts >= MAGIC_CODE_MAX_ATTEMPTS) ? attemptsExceeded() : invalidCode();
  if (!(await markAuthCodeUsed(match.id))) throw invalidCode();
  await attempt.succeeded();
  await expireAuthCodes("magic_code", email, app.id);
  return signInAnswer(await endUserFor(app.id, email));
}

/** The emailed link: signs in once, then continues where the user was going. */
export async function signInWithMagicLink(oobCode: string): Promise<MagicLinkSignInAnswer> {
  const code = await consumeAuthCodeByToken("magic_code", hashSecret(oobCode));
  if (!code?.tenantId || code.attempts >= MAGIC_CODE_MAX_ATTEMPTS) {
    throw new AppError("BAD_REQUEST", "magicLinkInvalid", "auth/invalid-action-code");
  }
  await expireAuthCodes("magic_code", code.email, code.tenantId);
  return {
    ...(await signInAnswer(await endUserFor(code.tenantId, code.email))),
    continueUrl: safeRedirectPath(code.continueUrl, appOrigin(), `/app/${code.tenantId}`),
  };
}

async function signInAnswer(proven: { user: User; passwordRemoved: boolean }): Promise<CustomTokenAnswer> {
  return {
    customToken: await createCustomToken(proven.user),
    // An end user of the app (endUserFor found them by it), so never a builder's null.
    tenantId: proven.user.tenantId!,
    // Shown after sign-in when a password set before the address was proven had to go.
    ...(proven.passwordRemoved ? { notice: messages.passwordRemovedAfterProof } : {}),
  };
}

// A code proves the address: the end user is created, or marked verified, on first use.
async function endUserFor(appId: string, email: string) {
  const user =
    (await findUserByEmail(appId, email)) ??
    (await insertUser({ tenantId: appId, email, emailVerifiedAt: new Date() })) ??
    (await findUserByEmail(appId, email));
  if (!user) throw new AppError("INTERNAL", "magicSignInFailed");
  if (user.disabledAt) throw new AppError("FORBIDDEN", "userDisabled", "auth/user-disabled");
  return markAddressProven(user);
}
