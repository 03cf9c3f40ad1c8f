"use client";

import Link from "next/link";
import { signIn } from "next-auth/react";
import { Button } from "@/components/ui/button";
import { authMessages } from "@/lib/messages/auth";
import { ApiError, apiFetch } from "./api-client";
import { Field } from "./field";
import { FormError } from "./form-error";
import { GoogleButton } from "./google-button";
import { useSignInFlow } from "./use-sign-in-flow";

/** Sign-up with email and password, then straight into the sign-in path. */
export function SignupForm({
  appId,
  googleEnabled,
  loginHref,
}: {
  appId?: string;
  googleEnabled: boolean;
  loginHref: string;
}) {
  const { error, setError, busy, setBusy, finish, router } = useSignInFlow(appId);

  const onSubmit = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const email = String(form.get("email") ?? "");
    const password = String(form.get("password") ?? "");
    setBusy(true);
    setError(null);
    try {
      await apiFetch("/api/identity/sign-up", {
        body: { email, password, ...(appId ? { appId } : {}) },
      });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : authMessages.internal);
      setBusy(false);
      return;
    }
    const res = await signIn("password", {
      email,
      password,
      ...(appId ? { appId } : {}),
      redirect: false,
    }).catch(() => null);
    if (!res || res.error) {
      router.replace(loginHref);
      return;
    }
    await finish();
  };

  return (
    <div className="grid gap-4">
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <Field id="email" label="Email" type="email" autoComplete="email" required autoFocus />
        <Field
          id="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          maxLength={128}
        />
        <p className="text-xs text-muted-foreground">At least 8 characters; avoid common passwords.</p>
        <FormError message={error} />
        <Button type="submit" disabled={busy}>
          {busy ? "Creating account..." : "Sign up"}
        </Button>
      </form>
      {googleEnabled && <GoogleButton appId={appId} onSignedIn={() => void finish()} />}
      <p className="text-sm text-muted-foreground">
        Already have an account?{" "}
        <Link className="text-foreground underline underline-offset-4" href={loginHref}>
          Log in
        </Link>
      </p>
    </div>
  );
}
