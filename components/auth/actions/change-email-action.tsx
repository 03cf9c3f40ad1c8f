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

/** The emailed confirmation of a new address completes the change. */
export function ChangeEmailAction({ oobCode, newEmail }: { oobCode: string; newEmail: string }) {
  const router = useRouter();
  const [state, setState] = useState<{ done: boolean; error: string | null }>({ done: false, error: null });

  useOnce(async () => {
    try {
      await apiFetch("/api/live_api/account/completeEmailChange", { body: { newEmail, oobCode } });
      await refreshSessionAction();
      setState({ done: true, error: null });
    } catch (err) {
      const taken = err instanceof ApiError && err.code === "auth/email-already-exists";
      setState({ done: true, error: taken ? authMessages.emailInUse : authMessages.emailChangeFailed });
    }
  });

  if (!state.done) return <AuthCard title="Confirming your new email..." />;
  return (
    <AuthCard
      title={state.error ? "Email not changed" : authMessages.emailUpdated}
      description={state.error ? undefined : newEmail}
    >
      <FormError message={state.error} />
      <Button onClick={() => router.replace("/settings")}>Go to settings</Button>
    </AuthCard>
  );
}
