"use client";

import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { ChangeEmailAction } from "./actions/change-email-action";
import { MagicLinkAction } from "./actions/magic-link-action";
import { ResetPasswordAction } from "./actions/reset-password-action";
import { VerifyEmailAction } from "./actions/verify-email-action";
import { AuthCard } from "./auth-card";

export function ActionHandler() {
  const params = useSearchParams();
  const mode = params.get("mode");
  const oobCode = params.get("oobCode") ?? "";
  const continueUrl = params.get("continueUrl");
  switch (mode) {
    case "verifyEmail":
      return <VerifyEmailAction oobCode={oobCode} />;
    case "resetPassword":
      return <ResetPasswordAction oobCode={oobCode} continueUrl={continueUrl} />;
    case "verifyAndChangeEmail":
      return <ChangeEmailAction oobCode={oobCode} newEmail={params.get("newEmail") ?? ""} />;
    case "signIn":
      return <MagicLinkAction oobCode={oobCode} />;
    default:
      return (
        <AuthCard
          title="Nothing to do here"
          description="This link is not complete. Open it again from your email."
        >
          <Link className="text-sm underline" href="/login">
            Go to log in
          </Link>
        </AuthCard>
      );
  }
}
