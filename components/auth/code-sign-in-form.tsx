"use client";

import { useRouter, useSearchParams } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { authMessages } from "@/lib/messages/auth";
import { ApiError, apiFetch } from "./api-client";
import { completeSignIn } from "./complete-sign-in";
import { Field } from "./field";
import { FormError } from "./form-error";
import { signedInToast } from "./signed-in-toast";

/** End users of an app: email → 6-digit code by mail → signed in. */
export function CodeSignInForm({ appId }: { appId: string }) {
  const router = useRouter();
  const params = useSearchParams();
  const [email, setEmail] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const continueUrl = params.get("redirectTo") ?? `/app/${appId}`;
  const q = `?appId=${encodeURIComponent(appId)}`;

  const sendCode = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const address = String(new FormData(e.currentTarget).get("code-email") ?? "");
    setBusy(true);
    setError(null);
    try {
      await apiFetch(`/api/live_api/account/sendMagicLink${q}`, { body: { email: address, continueUrl } });
      setEmail(address);
      toast.success(authMessages.magicCodeSent);
    } catch (err) {
      setError(
        err instanceof ApiError && err.code === "auth/invalid-email"
          ? authMessages.magicEmailInvalid
          : authMessages.magicSendFailed,
      );
    } finally {
      setBusy(false);
    }
  };

  const checkCode = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const otp = String(new FormData(e.currentTarget).get("otp") ?? "");
    setBusy(true);
    setError(null);
    let customToken: string;
    let notice: string | undefined;
    try {
      ({ customToken, notice } = await apiFetch<{ customToken: string; notice?: string }>(
        `/api/live_api/account/validateOtp${q}`,
        {
          body: { email, otp },
        },
      ));
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.code === "ATTEMPTS_EXCEEDED") {
        setEmail(null);
        return setError(authMessages.otpAttemptsExceeded);
      }
      return setError(authMessages.otpInvalid);
    }
    const res = await signIn("token", { customToken, redirect: false }).catch(() => null);
    if (!res || res.error) {
      setBusy(false);
      return setError(authMessages.magicSignInFailed);
    }
    signedInToast(notice);
    await completeSignIn({
      redirectTo: continueUrl,
      fallback: `/app/${appId}`,
      navigate: (p) => router.replace(p),
    }).catch((err: Error) => {
      setError(err.message);
      setBusy(false);
    });
  };

  if (!email) {
    return (
      <form onSubmit={sendCode} className="grid gap-4" noValidate>
        <Field id="code-email" label="Email" type="email" autoComplete="email" required />
        <FormError message={error} />
        <Button type="submit" disabled={busy}>
          Email me a sign-in code
        </Button>
      </form>
    );
  }
  return (
    <form onSubmit={checkCode} className="grid gap-4" noValidate>
      <p className="text-sm text-muted-foreground">Enter the 6-digit code we sent to {email}.</p>
      <Field
        id="otp"
        label="Sign-in code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]{6}"
        maxLength={6}
        required
        autoFocus
      />
      <FormError message={error} />
      <Button type="submit" disabled={busy}>
        Sign in
      </Button>
      <Button type="button" variant="ghost" onClick={() => setEmail(null)}>
        Use another email or send a new code
      </Button>
    </form>
  );
}
