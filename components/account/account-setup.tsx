"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useOnce } from "@/components/auth/actions/use-once";
import { completeSignIn } from "@/components/auth/complete-sign-in";
import { FormError } from "@/components/auth/form-error";

/** Signed in but no account yet (e.g. a session from before): create it, then show the page. */
export function AccountSetup() {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  useOnce(() => {
    void completeSignIn({
      redirectTo: window.location.pathname + window.location.search,
      navigate: (p) => (p.startsWith("/error/") ? router.replace(p) : router.refresh()),
    }).catch((err: Error) => setError(err.message));
  });
  return (
    <div className="p-8">
      {error ? (
        <FormError message={error} />
      ) : (
        <p className="text-sm text-muted-foreground">Setting up your account...</p>
      )}
    </div>
  );
}
