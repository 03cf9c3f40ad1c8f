"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { ApiError, apiFetch } from "@/components/auth/api-client";
import { FormError } from "@/components/auth/form-error";
import { Button } from "@/components/ui/button";
import { messages } from "@/lib/messages";

/** "Claim this app": POST /api/apps/claim, then the claimed app's editor. */
export function ClaimAppButton({ claimCode }: { claimCode: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const claim = async () => {
    setBusy(true);
    setError(null);
    try {
      const { appId } = await apiFetch<{ appId: string; header: string }>("/api/apps/claim", {
        method: "POST",
        body: { claimCode },
      });
      toast.success(messages.claimed);
      router.push(`/build/app/${appId}`);
    } catch (err) {
      setBusy(false);
      // The server's message: 'This invitation is invalid or has already been used', 'You already own this app'.
      setError(err instanceof ApiError ? err.message : messages.internal);
    }
  };

  return (
    <div className="grid gap-3">
      <FormError message={error} />
      <Button onClick={() => void claim()} disabled={busy} className="justify-self-start">
        {busy ? messages.claimClaiming : messages.claimButton}
      </Button>
    </div>
  );
}
