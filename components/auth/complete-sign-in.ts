"use client";

import { signOut } from "next-auth/react";
import {
  ACCOUNT_CREATE_INITIAL_WAIT_MS,
  ACCOUNT_CREATE_RETRIES,
  ACCOUNT_CREATE_RETRY_MS,
  MAIN_PAGE,
} from "@/lib/constants";
import { authMessages } from "@/lib/messages/auth";
import { safeRedirectPath } from "@/lib/security/redirects";
import { ApiError, apiFetch } from "./api-client";
import { setBearerToken } from "./token-store";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * After any sign-in: create the account (idempotent), then go on. With a sale id the
 * account is made by the payment webhook, so we wait 3 s and retry a 401 up to 7 times,
 * 4 s apart. Without one, or when retries run out, the user is signed out and sent to
 * /error/unauthorized.
 */
export async function completeSignIn(opts: {
  saleId?: string | null;
  redirectTo?: string | null;
  fallback?: string;
  navigate: (path: string) => void;
}): Promise<void> {
  const { saleId } = opts;
  if (saleId) await sleep(ACCOUNT_CREATE_INITIAL_WAIT_MS);
  const path = `/api/live_api/account/create${saleId ? `?sale_id=${encodeURIComponent(saleId)}` : ""}`;
  for (let attempt = 0; ; attempt++) {
    try {
      await apiFetch(path, { method: "POST" });
      break;
    } catch (err) {
      const notReady = err instanceof ApiError && err.status === 401;
      if (notReady && saleId && attempt < ACCOUNT_CREATE_RETRIES) {
        await sleep(ACCOUNT_CREATE_RETRY_MS);
        continue;
      }
      if (notReady) {
        setBearerToken(null);
        await signOut({ redirect: false });
        opts.navigate(`/error/unauthorized${saleId ? `?paymentId=${encodeURIComponent(saleId)}` : ""}`);
        return;
      }
      throw new Error(authMessages.accountCreateFailed);
    }
  }
  opts.navigate(safeRedirectPath(opts.redirectTo, window.location.origin, opts.fallback ?? MAIN_PAGE));
}
