// Every user-visible string of the product, by key. The spec's wording is authoritative:
// strings quoted in the spec are copied here word for word, and tests assert against this file.
export const messages = {
  // Authentication (spec 1 §8)
  invalidCredentials: "Invalid email or password",
  userDisabled: "User is disabled, contact us for more info",
  tooManyLoginAttempts: "Too many login attempts, try again later",
  emailInUseSignup: "This email is already in use, try logging in",
  emailInUse: "This email is already in use",
  passwordTooWeak: "This password is too weak",
  emailInvalid: "This email is invalid",
  accountCreateFailed: "Something went wrong in creating account, try again later or contact us",
  passwordResetSuccess: "Password reset successfully",
  resetLinkInvalid: "Link invalid, try to reset your password again.",
  resetPasswordTooWeak: "Password is too weak, please try again",
  resetUserNotFound: "User not found or disabled",
  resetError: "Error resetting password!",
  resetSendFailed:
    "Something went wrong sending password reset email. Please try again later or contact support",
  emailChangeFailed:
    "Something went wrong when confirming email change. Please try again later or contact support",
  emailUpdated: "Email updated",
  magicCodeSent: "Verification code sent to your email",
  magicSendFailed: "Failed to send magic link. Please try again.",
  magicLinkInvalid: "Invalid or expired magic link",
  magicEmailInvalid: "Invalid email address",
  magicSignInFailed: "Failed to sign in with magic link",
  magicSignInSuccess: "Successfully signed in!",
  otpAttemptsExceeded: "Too many attempts, request a new code",
  otpInvalid: "Invalid or expired code",

  // Our own wording where the spec is silent
  currentPasswordWrong: "Your current password is incorrect",
  verificationSent: "Verification email sent",
  verificationSendFailed: "Failed to send verification email, try again later",
  tooManyRequests: "Too many requests, try again later",
  emailVerified: "Your email is verified",
  verifyLinkInvalid: "This verification link is invalid or has expired",
  resetEmailSentIfExists: "If an account exists for this email, a reset link is on its way",
  emailChangeSent: "Check your new inbox to confirm the change",
  unauthenticated: "Please log in to continue",
  forbidden: "You don't have access to this",
  notFound: "Not found",
  invalidInput: "Invalid input",
  crossSite: "Cross-site request refused",
  internal: "Something went wrong, try again later",
  notYetReady: "Your account is not ready yet",
  appNotFound: "App not found",
  googleNotConfigured: "Google sign-in is not configured (set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET)",
  unsavedChanges: "You have unsaved changes. Leave anyway?",

  // Shared helpers (spec 1 §8, Other)
  llmOutputNotJson: "LLM output is not a valid JSON",
} as const;

export type MessageKey = keyof typeof messages;
