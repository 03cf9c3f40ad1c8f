"use client";

import { useState } from "react";
import { toast } from "sonner";
import { ApiError, apiFetch } from "@/components/auth/api-client";
import { Field } from "@/components/auth/field";
import { FormError } from "@/components/auth/form-error";
import { useLeavePageWarning } from "@/components/shell/use-leave-warning";
import { Button } from "@/components/ui/button";
import { messages } from "@/lib/messages";

/** Email change: the current password is required; the new address confirms by link. */
export function ChangeEmailForm() {
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A half-typed change is not lost by a stray click on another page.
  const [dirty, setDirty] = useState(false);
  useLeavePageWarning(dirty);

  const onSubmit = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const formEl = e.currentTarget;
    const form = new FormData(formEl);
    const newEmail = String(form.get("new-email") ?? "");
    setBusy(true);
    setError(null);
    try {
      await apiFetch("/api/identity/request-email-change", {
        body: { newEmail, currentPassword: String(form.get("current-password") ?? "") },
      });
      setSent(newEmail);
      formEl.reset();
      setDirty(false);
      toast.success(messages.emailChangeSent);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : messages.internal);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      onSubmit={onSubmit}
      onInput={(e) => setDirty(new FormData(e.currentTarget).get("new-email") !== "")}
      className="grid gap-4 rounded-md border border-border p-4"
      noValidate
    >
      <Field id="new-email" label="New email" type="email" autoComplete="email" required />
      <Field
        id="current-password"
        label="Current password"
        type="password"
        autoComplete="current-password"
        required
      />
      <FormError message={error} />
      {sent && (
        <p role="status" className="text-sm text-muted-foreground">
          {messages.emailChangeSent} ({sent})
        </p>
      )}
      <Button type="submit" disabled={busy} className="justify-self-start">
        Change email
      </Button>
    </form>
  );
}
