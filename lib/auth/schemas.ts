import { z } from "zod";
import {
  APP_ID_MAX,
  CODE_MAX,
  EMAIL_MAX,
  LINK_CODE_MAX,
  NEW_PASSWORD_MAX,
  PASSWORD_MAX,
  URL_MAX,
} from "@/lib/constants";
import { PLAN_IDS } from "@/lib/plans/catalogue";
import { storableString } from "@/lib/storable-text";

// Request shapes of the identity and account routes. Semantic checks (a valid email, a strong
// password) happen in the services so that each failure gets its own catalogue message; every
// text has a maximum length here, so nothing long is ever hashed or looked up.
const text = (max: number) => storableString().max(max);
const email = text(EMAIL_MAX);
const password = text(PASSWORD_MAX);
const newPassword = text(NEW_PASSWORD_MAX);
const oobCode = text(LINK_CODE_MAX).min(1);
const url = text(URL_MAX);
const appId = text(APP_ID_MAX);

export const SignUpBody = z
  .object({
    email: email,
    password: newPassword,
    appId: appId.optional(),
  })
  .meta({ examples: [{ email: "ada@example.com", password: "correct horse battery 42" }] });

export const PasswordSignInBody = z
  .object({
    email: email,
    password: password,
    appId: appId.optional(),
  })
  .meta({ examples: [{ email: "ada@example.com", password: "correct horse battery 42" }] });

export const SendVerificationBody = z.object({ continueUrl: url.optional() }).meta({ examples: [{}] });

export const OobCodeBody = z
  .object({ oobCode: oobCode })
  .meta({ examples: [{ oobCode: "the oobCode parameter of the mail's link" }] });

/** The Auth.js "token" provider's one field. */
export const CustomTokenBody = z.object({ customToken: oobCode });

export const ResetPasswordBody = z.object({ oobCode: oobCode, newPassword: newPassword }).meta({
  examples: [
    { oobCode: "the oobCode parameter of the mail's link", newPassword: "a brand new passphrase 8" },
  ],
});

export const SendResetBody = z
  .object({
    email: email,
    mainAppId: appId.nullish(),
    continueUrl: url.optional(),
  })
  .meta({ examples: [{ email: "ada@example.com" }] });

export const RequestEmailChangeBody = z
  .object({ newEmail: email, currentPassword: password })
  .meta({ examples: [{ newEmail: "ada.new@example.com", currentPassword: "correct horse battery 42" }] });

export const CompleteEmailChangeBody = z.object({ newEmail: email, oobCode: oobCode }).meta({
  examples: [{ newEmail: "ada.new@example.com", oobCode: "the oobCode parameter of the mail's link" }],
});

export const AppIdQuery = z.object({ appId: appId.min(1) });

export const SendMagicLinkBody = z
  .object({ email: email, continueUrl: url.optional() })
  .meta({ examples: [{ email: "ada@example.com" }] });

export const ValidateOtpBody = z
  .object({ email: email, otp: text(CODE_MAX) })
  .meta({ examples: [{ email: "ada@example.com", otp: "123456" }] });

export const CreateAccountQuery = z.object({ sale_id: text(200).optional() });

export const OutboxQuery = z.object({ to: email.optional() });

export const SessionIdParams = z.object({ sessionId: z.uuid() });

export const ChangePasswordBody = z.object({ currentPassword: password, newPassword: newPassword }).meta({
  examples: [{ currentPassword: "correct horse battery 42", newPassword: "a brand new passphrase 8" }],
});

// Answers of the identity and account routes, as the client receives them.

/** A mail was queued (the same answer whether or not the address has an account). */
export const SentAnswer = z.object({ sent: z.literal(true) });
export type SentAnswer = z.infer<typeof SentAnswer>;

/** The address a link belongs to (a usable reset link), or the address an account now has. */
export const EmailAnswer = z.object({ email: z.string() });
export type EmailAnswer = z.infer<typeof EmailAnswer>;

/** Where the page goes next: a path of this site (or its origin's URL) checked against open redirects. */
export const ContinueAnswer = z.object({ continueUrl: z.string() });
export type ContinueAnswer = z.infer<typeof ContinueAnswer>;

/** POST /api/identity/send-verification-email: nothing was sent when the address is already verified. */
export const VerificationSentAnswer = z.object({ alreadyVerified: z.boolean() });
export type VerificationSentAnswer = z.infer<typeof VerificationSentAnswer>;

/** POST /api/identity/verify-email */
export const VerifyEmailAnswer = ContinueAnswer.extend({ alreadyVerified: z.boolean() });
export type VerifyEmailAnswer = z.infer<typeof VerifyEmailAnswer>;

/** POST /api/identity/sign-up */
export const SignUpAnswer = z.object({ userId: z.uuid() });
export type SignUpAnswer = z.infer<typeof SignUpAnswer>;

/** A bearer token (sign-in of an API client, or its refresh), for `Authorization: Bearer`. */
export const BearerTokenAnswer = z.object({
  token: z.string(),
  expiresAt: z.iso.datetime(),
  /** The app whose end user signed in; null for a builder. */
  tenantId: z.uuid().nullable(),
});
export type BearerTokenAnswer = z.infer<typeof BearerTokenAnswer>;

/** A proven one-time code: a single-use custom token, exchanged for a session by the sign-in page. */
export const CustomTokenAnswer = z.object({
  customToken: z.string(),
  /** The app whose end user signed in. */
  tenantId: z.uuid(),
  /** Shown after sign-in when a password set before the address was proven had to go. */
  notice: z.string().optional(),
});
export type CustomTokenAnswer = z.infer<typeof CustomTokenAnswer>;

/** POST /api/identity/sign-in-with-magic-link: the custom token, and where the user was going. */
export const MagicLinkSignInAnswer = CustomTokenAnswer.extend({ continueUrl: z.string() });
export type MagicLinkSignInAnswer = z.infer<typeof MagicLinkSignInAnswer>;

/** GET /api/identity/sessions: this device first, then the others by their last use. */
export const SessionsAnswer = z.object({
  sessions: z.array(
    z.object({
      id: z.uuid(),
      current: z.boolean(),
      createdAt: z.iso.datetime(),
      lastSeenAt: z.iso.datetime(),
      userAgent: z.string().nullable(),
      ip: z.string().nullable(),
    }),
  ),
});
export type SessionsAnswer = z.infer<typeof SessionsAnswer>;

/** POST /api/live_api/account/create */
export const AccountIdAnswer = z.object({ accountId: z.uuid() });

/** GET /api/live_api/account/current: the account, with the sign-in email. */
export const CurrentAccountAnswer = z.object({
  accountId: z.uuid(),
  accountType: z.enum(["builder", "other"]),
  plan: z.enum(PLAN_IDS),
  subscriptionId: z.string().nullable(),
  planSubscriptionStatus: z.string().nullable(),
  planSubscriptionCancelledAt: z.iso.datetime().nullable(),
  /** The app of an end user's account; null for a builder. */
  appId: z.uuid().nullable(),
  appHeader: z.string().nullable(),
  hasBusinessInfo: z.boolean(),
  hasPaidAppPackage: z.boolean(),
  isAdmin: z.boolean(),
  email: z.string(),
  emailVerified: z.boolean(),
});

/** GET /api/dev/outbox: the newest mails first (outside production only). */
export const OutboxAnswer = z.object({
  mails: z.array(
    z.object({
      id: z.uuid(),
      to: z.string(),
      subject: z.string(),
      text: z.string(),
      html: z.string(),
      createdAt: z.iso.datetime(),
    }),
  ),
});
