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

export const ResetPasswordBody = z
  .object({ oobCode: oobCode, newPassword: newPassword })
  .meta({
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

export const CompleteEmailChangeBody = z
  .object({ newEmail: email, oobCode: oobCode })
  .meta({
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

export const ChangePasswordBody = z
  .object({ currentPassword: password, newPassword: newPassword })
  .meta({
    examples: [{ currentPassword: "correct horse battery 42", newPassword: "a brand new passphrase 8" }],
  });
