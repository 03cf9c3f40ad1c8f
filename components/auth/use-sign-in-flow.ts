"use client";

import { useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { completeSignIn } from "./complete-sign-in";

/**
 * State shared by the sign-in forms: an error, a busy flag, and `finish()`, which runs the
 * account step with the page's sale_id (a payment to wait for) and redirectTo once Auth.js signed in.
 */
export function useSignInFlow(appId?: string) {
  const router = useRouter();
  const params = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const finish = async () => {
    try {
      await completeSignIn({
        saleId: params.get("sale_id"),
        redirectTo: params.get("redirectTo"),
        fallback: appId ? `/app/${appId}` : undefined,
        navigate: (p) => router.replace(p),
      });
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };

  return { error, setError, busy, setBusy, finish, router, params };
}
