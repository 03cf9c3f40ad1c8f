"use client";

import { useState } from "react";
import { toast } from "sonner";
import { ApiError, apiFetch } from "@/components/auth/api-client";
import { Field } from "@/components/auth/field";
import { FormError } from "@/components/auth/form-error";
import { Button } from "@/components/ui/button";
import { messages } from "@/lib/messages";

/** A new password, with the current one; every other session is signed out. */
export function ChangePasswordForm() {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const formEl = e.currentTarget;
    const form = new FormData(formEl);
    setBusy(true);
    setError(null);
    try {
      await apiFetch("/api/identity/change-password", {
        body: {
          currentPassword: String(form.get("password-current") ?? ""),
          newPassword: String(form.get("password-new") ?? ""),
        },
      });
      formEl.reset();
      toast.success(messages.passwordChanged);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : messages.internal);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={onSubmit} className="grid gap-4 rounded-md border border-border p-4" noValidate>
      <Field
        id="password-current"
        label="Your current password"
        type="password"
        autoComplete="current-password"
        required
      />
      <Field id="password-new" label="New password" type="password" autoComplete="new-password" required />
      <FormError message={error} />
      <Button type="submit" disabled={busy} className="justify-self-start">
        Change password
      </Button>
    </form>
  );
}
