import "server-only";
import {
  consumeAuthCodeByToken,
  expireAuthCodes,
  findLatestMagicCode,
  incrementAuthCodeAttempts,
  insertAuthCode,
  markAuthCodeUsed,
} from "@/db/queries/auth-codes";
import { findUserByEmail, insertUser, updateUser } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { AppError } from "@/lib/api/errors";
import { requirePublishedApp } from "@/lib/apps/tenant";
import { MAGIC_CODE_MAX_ATTEMPTS, MAGIC_CODE_TTL_S } from "@/lib/constants";
import { sendMail } from "@/lib/email/send";
import { actionLink, magicCodeMail } from "@/lib/email/templates";
import { appOrigin } from "@/lib/env";
import { logError } from "@/lib/log";
import { assertMailSendAllowed } from "@/lib/security/rate-limit";
import { safeRedirectPath } from "@/lib/security/redirects";
import { hashSecret, randomSixDigitCode, randomToken, safeEqual } from "./codes-crypto";
import { createCustomToken } from "./custom-token";
import { isValidEmail, normalizeEmail } from "./email-address";

/** Mails a 6-digit code and a sign-in link for an app; any older code of the address dies. */
export async function sendMagicCode(
  appId: string,
  input: { email: string; continueUrl?: string },
  ip: string,
) {
  const app = await requirePublishedApp(appId);
  const email = normalizeEmail(input.email);
  if (!isValidEmail(email)) throw new AppError("BAD_REQUEST", "magicEmailInvalid", "auth/invalid-email");
  await assertMailSendAllowed(`magic:${app.id}`, email, ip);
  const token = randomToken();
  const code = randomSixDigitCode();
  const continueUrl = safeRedirectPath(input.continueUrl, appOrigin(), `/app/${app.id}`);
  await expireAuthCodes("magic_code", email, app.id);
  await insertAuthCode({
    purpose: "magic_code",
    tenantId: app.id,
    email,
    tokenHash: hashSecret(token),
    codeHash: hashSecret(`${app.id}:${code}`),
    continueUrl,
    expiresAt: new Date(Date.now() + MAGIC_CODE_TTL_S * 1000),
  });
  const link = actionLink({ mode: "signIn", oobCode: token, appId: app.id, continueUrl });
  try {
    await sendMail(magicCodeMail(email, code, link, app.header || "the app"));
  } catch (err) {
    logError("magic code mail failed", { err });
    throw new AppError("INTERNAL", "magicSendFailed", "auth/send-failed");
  }
  return { sent: true as const };
}

const attemptsExceeded = () => new AppError("ATTEMPTS_EXCEEDED", "otpAttemptsExceeded", "ATTEMPTS_EXCEEDED");
const invalidCode = () => new AppError("BAD_REQUEST", "otpInvalid", "INVALID_CODE");

/** Checks a typed code; five wrong guesses kill it. Answers a custom token for sign-in. */
export async function validateOtp(appId: string, input: { email: string; otp: string }) {
  const app = await requirePublishedApp(appId);
  const email = normalizeEmail(input.email);
  const code = await findLatestMagicCode(app.id, email);
  if (!code?.codeHash) throw invalidCode();
  if (code.attempts >= MAGIC_CODE_MAX_ATTEMPTS) throw attemptsExceeded();
  if (!safeEqual(code.codeHash, hashSecret(`${app.id}:${input.otp.trim()}`))) {
    const attempts = await incrementAuthCodeAttempts(code.id);
    if (attempts >= MAGIC_CODE_MAX_ATTEMPTS) throw attemptsExceeded();
    throw invalidCode();
  }
  if (!(await markAuthCodeUsed(code.id))) throw invalidCode();
  const user = await endUserFor(app.id, email);
  return { customToken: await createCustomToken(user), tenantId: app.id };
}

/** The emailed link: signs in once, then continues where the user was going. */
export async function signInWithMagicLink(oobCode: string) {
  const code = await consumeAuthCodeByToken("magic_code", hashSecret(oobCode));
  if (!code?.tenantId || code.attempts >= MAGIC_CODE_MAX_ATTEMPTS) {
    throw new AppError("BAD_REQUEST", "magicLinkInvalid", "auth/invalid-action-code");
  }
  const user = await endUserFor(code.tenantId, code.email);
  return {
    customToken: await createCustomToken(user),
    tenantId: code.tenantId,
    continueUrl: safeRedirectPath(code.continueUrl, appOrigin(), `/app/${code.tenantId}`),
  };
}

// A code proves the address: the end user is created, or marked verified, on first use.
async function endUserFor(appId: string, email: string): Promise<User> {
  let user = await findUserByEmail(appId, email);
  if (!user)
    user =
      (await insertUser({ tenantId: appId, email, emailVerifiedAt: new Date() })) ??
      (await findUserByEmail(appId, email));
  if (!user) throw new AppError("INTERNAL", "magicSignInFailed");
  if (user.disabledAt) throw new AppError("FORBIDDEN", "userDisabled", "auth/user-disabled");
  if (!user.emailVerifiedAt) user = (await updateUser(user.id, { emailVerifiedAt: new Date() })) ?? user;
  return user;
}
