"use client";

import { signIn } from "next-auth/react";
import { rememberOAuthAppAction } from "@/lib/auth/session-actions";
import { useOnce } from "./actions/use-once";
import { AuthCard } from "./auth-card";

export function GoogleRedirect({ appId }: { appId?: string }) {
  useOnce(async () => {
    // Checked again on the way back (lib/auth/google.ts): the app must exist and be published.
    await rememberOAuthAppAction(appId ?? null);
    await signIn("google", { redirectTo: "/auth/popup-done" });
  });
  return <AuthCard title="Opening Google..." />;
}
