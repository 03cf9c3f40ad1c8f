"use client";

import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { authMessages } from "@/lib/messages/auth";
import { apiFetch } from "../api-client";
import { AuthCard } from "../auth-card";
import { completeSignIn } from "../complete-sign-in";
import { FormError } from "../form-error";
import { signedInToast } from "../signed-in-toast";
import { useOnce } from "./use-once";

/** A magic link signs the end user in to its app, once. */
export function MagicLinkAction({ oobCode }: { oobCode: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);

  useOnce(async () => {
    let answer: { customToken: string; tenantId: string; continueUrl: string; notice?: string };
    try {
      answer = await apiFetch("/api/identity/sign-in-with-magic-link", { body: { oobCode } });
    } catch {
      return setError(authMessages.magicLinkInvalid);
    }
    const res = await signIn("token", { customToken: answer.customToken, redirect: false }).catch(() => null);
    if (!res || res.error) return setError(authMessages.magicSignInFailed);
    signedInToast(answer.notice);
    await completeSignIn({
      redirectTo: answer.continueUrl,
      fallback: `/app/${answer.tenantId}`,
      navigate: (p) => router.replace(p),
    }).catch((err: Error) => setError(err.message));
  });

  return (
    <AuthCard title={error ? "Sign-in failed" : "Signing you in..."}>
      <FormError message={error} />
    </AuthCard>
  );
}
