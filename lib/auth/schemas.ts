import { z } from "zod";

// Request shapes of the identity and account routes. Semantic checks (a valid email, a strong
// password) happen in the services so that each failure gets its own catalogue message.
const text = (max: number) => z.string().max(max);

export const SignUpBody = z.object({
  email: text(320),
  password: text(1024),
  appId: z.string().optional(),
});

export const PasswordSignInBody = z.object({
  email: text(320),
  password: text(1024),
  appId: z.string().optional(),
});

export const SendVerificationBody = z.object({
  continueUrl: text(2048).optional(),
  appName: text(200).optional(),
});

export const OobCodeBody = z.object({ oobCode: text(200).min(1) });

export const ResetPasswordBody = z.object({ oobCode: text(200).min(1), newPassword: text(1024) });

export const SendResetBody = z.object({
  email: text(320),
  mainAppId: z.string().nullish(),
  continueUrl: text(2048).optional(),
});

export const RequestEmailChangeBody = z.object({ newEmail: text(320), currentPassword: text(1024) });

export const CompleteEmailChangeBody = z.object({ newEmail: text(320), oobCode: text(200).min(1) });

export const AppIdQuery = z.object({ appId: z.string().min(1) });

export const SendMagicLinkBody = z.object({ email: text(320), continueUrl: text(2048).optional() });

export const ValidateOtpBody = z.object({ email: text(320), otp: text(20) });

export const CreateAccountQuery = z.object({ sale_id: text(200).optional() });

export const OutboxQuery = z.object({ to: text(320).optional() });

export const SessionIdParams = z.object({ sessionId: z.uuid() });
