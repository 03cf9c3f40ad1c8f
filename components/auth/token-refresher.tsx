"use client";

import { useEffect } from "react";
import { TOKEN_REFRESH_MS } from "@/lib/constants";
import { setBearerToken } from "./token-store";

/**
 * While signed in: fetch a bearer token now and every 50 minutes, and renew the session
 * cookie at the same time (Auth.js re-issues it when the session is read).
 */
export function TokenRefresher() {
  useEffect(() => {
    let stopped = false;
    const refresh = async () => {
      const res = await fetch("/api/identity/token", { method: "POST", credentials: "same-origin" }).catch(
        () => null,
      );
      if (stopped || !res?.ok) return;
      const { token } = (await res.json()) as { token: string };
      setBearerToken(token);
      const renewed = await fetch("/api/auth/session", { credentials: "same-origin" }).catch(() => null);
      // Read to the end: an unread body keeps the request open in the browser.
      await renewed?.text().catch(() => null);
    };
    void refresh();
    const timer = setInterval(refresh, TOKEN_REFRESH_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, []);
  return null;
}
