"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { refreshSessionAction } from "@/lib/auth/session-actions";
import { authMessages } from "@/lib/messages/auth";
import { ApiError, apiFetch } from "./api-client";
import { AuthCard } from "./auth-card";
import { FormError } from "./form-error";

const POLL_MS = 4000;

/**
 * Sends the verification mail once per tab, offers a resend, and moves on by itself as soon
 * as the email is verified (in this tab or another).
 */
export function VerifyEmailPanel(props: { email: string; continueUrl: string; verified: boolean }) {
  const { email, continueUrl, verified } = props;
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const leaving = useRef(false);

  const send = useCallback(async () => {
    setBusy(true);
    setError(null);
    try {
      await apiFetch("/api/identity/send-verification-email", { body: { continueUrl } });
      toast.success(authMessages.verificationSent);
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 429
          ? authMessages.tooManyRequests
          : authMessages.verificationSendFailed,
      );
    } finally {
      setBusy(false);
    }
  }, [continueUrl]);

  const continueIfVerified = useCallback(async () => {
    if (leaving.current) return;
    const state = await refreshSessionAction();
    if (state.emailVerified) {
      leaving.current = true;
      router.replace(continueUrl);
    }
  }, [continueUrl, router]);

  useEffect(() => {
    if (verified) {
      void continueIfVerified();
      return;
    }
    const key = `verify-sent:${email}`;
    if (!sessionStorage.getItem(key)) {
      sessionStorage.setItem(key, "1");
      void send();
    }
    const timer = setInterval(async () => {
      const me = await apiFetch<{ emailVerified?: boolean }>("/api/live_api/account/current").catch(
        () => null,
      );
      if (me?.emailVerified) void continueIfVerified();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [verified, email, send, continueIfVerified]);

  return (
    <AuthCard
      title="Verify your email"
      description={`We sent a verification link to ${email}. Open it to continue.`}
    >
      <FormError message={error} />
      <div className="grid gap-2">
        <Button type="button" onClick={() => void continueIfVerified()}>
          I've verified my email
        </Button>
        <Button type="button" variant="outline" disabled={busy} onClick={() => void send()}>
          Resend verification email
        </Button>
        <Button type="button" variant="ghost" onClick={() => router.push("/logout")}>
          Use another account
        </Button>
      </div>
    </AuthCard>
  );
}
