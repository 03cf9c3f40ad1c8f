"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { refreshSessionAction } from "@/lib/auth/session-actions";
import { authMessages } from "@/lib/messages/auth";
import { ApiError, apiFetch } from "../api-client";
import { AuthCard } from "../auth-card";
import { FormError } from "../form-error";
import { useOnce } from "./use-once";

export function VerifyEmailAction({ oobCode }: { oobCode: string }) {
  const router = useRouter();
  const [state, setState] = useState<{ done: boolean; error: string | null; title: string; next: string }>({
    done: false,
    error: null,
    title: authMessages.emailVerified,
    next: "/home",
  });

  useOnce(async () => {
    try {
      const { continueUrl, alreadyVerified } = await apiFetch<{
        continueUrl: string;
        alreadyVerified: boolean;
      }>("/api/identity/verify-email", { body: { oobCode } });
      // Signed in here too? Then the session learns about it right away.
      const session = await refreshSessionAction();
      setState({
        done: true,
        error: null,
        title: alreadyVerified ? authMessages.emailAlreadyVerified : authMessages.emailVerified,
        next: session.signedIn ? continueUrl : `/login?redirectTo=${encodeURIComponent(continueUrl)}`,
      });
    } catch (err) {
      setState({
        done: true,
        error: err instanceof ApiError ? err.message : authMessages.verifyLinkInvalid,
        title: authMessages.verificationFailed,
        next: "/login",
      });
    }
  });

  if (!state.done) return <AuthCard title="Verifying your email..." />;
  return (
    <AuthCard title={state.title}>
      <FormError message={state.error} />
      <Button onClick={() => router.replace(state.next)}>Continue</Button>
    </AuthCard>
  );
}
