"use client";

import Link from "next/link";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { authMessages } from "@/lib/messages/auth";
import { Field } from "./field";
import { FormError } from "./form-error";
import { GoogleButton } from "./google-button";
import { ResetPasswordRequest } from "./reset-password-request";
import { useSignInFlow } from "./use-sign-in-flow";

// The refusals of a password sign-in (lib/auth/login.ts, lib/auth/next-auth.ts) are all auth messages.
const messageFor = (code: string | undefined) =>
  code && Object.hasOwn(authMessages, code)
    ? authMessages[code as keyof typeof authMessages]
    : authMessages.invalidCredentials;

/** Email + password sign-in, for builders (no appId) or end users of an app. */
export function LoginForm({
  appId,
  googleEnabled,
  signupHref,
}: {
  appId?: string;
  googleEnabled: boolean;
  signupHref: string;
}) {
  const { error, setError, busy, setBusy, finish } = useSignInFlow(appId);
  const [resetOpen, setResetOpen] = useState(false);

  const onSubmit = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    const res = await signIn("password", {
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      ...(appId ? { appId } : {}),
      redirect: false,
    }).catch(() => null);
    if (!res || res.error) {
      setError(messageFor(res?.code));
      setBusy(false);
      return;
    }
    await finish();
  };

  return (
    <div className="grid gap-4">
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <Field id="email" label="Email" type="email" autoComplete="email" required autoFocus />
        <Field id="password" label="Password" type="password" autoComplete="current-password" required />
        <FormError message={error} />
        <Button type="submit" disabled={busy}>
          {busy ? "Logging in..." : "Log in"}
        </Button>
      </form>
      {googleEnabled && <GoogleButton appId={appId} onSignedIn={() => void finish()} />}
      <div className="flex justify-between text-sm">
        <button
          type="button"
          className="text-muted-foreground underline-offset-4 hover:underline"
          onClick={() => setResetOpen((o) => !o)}
        >
          Forgot password?
        </button>
        <Link className="text-foreground underline underline-offset-4" href={signupHref}>
          Create an account
        </Link>
      </div>
      {resetOpen && <ResetPasswordRequest appId={appId} />}
    </div>
  );
}
