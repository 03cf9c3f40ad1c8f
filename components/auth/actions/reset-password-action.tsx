"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { authMessages } from "@/lib/messages/auth";
import { safeRedirectPath } from "@/lib/security/redirects";
import { ApiError, apiFetch } from "../api-client";
import { AuthCard } from "../auth-card";
import { Field } from "../field";
import { FormError } from "../form-error";
import { useOnce } from "./use-once";

/** The new-password form of a reset link. An invalid or used link goes back to log in. */
export function ResetPasswordAction({
  oobCode,
  continueUrl,
}: {
  oobCode: string;
  continueUrl: string | null;
}) {
  const router = useRouter();
  const [email, setEmail] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Read on the client only: this component also renders on the server, where there is no window.
  const loginPath = () => safeRedirectPath(continueUrl, window.location.origin, "/login");

  const linkInvalid = () => {
    toast.error(authMessages.resetLinkInvalid);
    router.replace(loginPath());
  };

  useOnce(async () => {
    try {
      const res = await apiFetch<{ email: string }>("/api/identity/check-reset-code", { body: { oobCode } });
      setEmail(res.email);
    } catch {
      linkInvalid();
    }
  });

  const onSubmit = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const newPassword = String(new FormData(e.currentTarget).get("new-password") ?? "");
    setBusy(true);
    setError(null);
    try {
      await apiFetch("/api/identity/reset-password", { body: { oobCode, newPassword } });
      toast.success(authMessages.passwordResetSuccess);
      router.replace(loginPath());
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.code === "auth/invalid-action-code") return linkInvalid();
      if (err instanceof ApiError && err.status === 400) return setError(err.message);
      setError(authMessages.resetError);
    }
  };

  if (!email) return <AuthCard title="Checking your link..." />;
  return (
    <AuthCard title="Choose a new password" description={`For ${email}`}>
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <Field
          id="new-password"
          label="New password"
          type="password"
          autoComplete="new-password"
          required
          autoFocus
        />
        <FormError message={error} />
        <Button type="submit" disabled={busy}>
          Reset password
        </Button>
      </form>
    </AuthCard>
  );
}
