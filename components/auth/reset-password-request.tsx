"use client";

import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { authMessages } from "@/lib/messages/auth";
import { ApiError, apiFetch } from "./api-client";
import { Field } from "./field";
import { FormError } from "./form-error";

/** "Forgot password?": mails a reset link; the answer is the same whether the email exists or not. */
export function ResetPasswordRequest({ appId, defaultEmail }: { appId?: string; defaultEmail?: string }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const email = String(new FormData(e.currentTarget).get("reset-email") ?? "");
    setBusy(true);
    setError(null);
    try {
      await apiFetch("/api/live_api/account/sendResetPasswordEmail", {
        body: { email, mainAppId: appId ?? null, continueUrl: appId ? `/app/${appId}/login` : "/login" },
      });
      toast.success(authMessages.resetEmailSentIfExists);
    } catch (err) {
      setError(
        err instanceof ApiError && err.code === "auth/invalid-email"
          ? err.message
          : authMessages.resetSendFailed,
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={onSubmit} className="grid gap-3 rounded-md border border-border p-4" noValidate>
      <Field
        id="reset-email"
        label="Email for the reset link"
        type="email"
        autoComplete="email"
        defaultValue={defaultEmail}
        required
      />
      <FormError message={error} />
      <Button type="submit" variant="secondary" disabled={busy}>
        Send reset link
      </Button>
    </form>
  );
}
