"use client";

import { Button } from "@/components/ui/button";

/**
 * Google sign-in in a popup. The popup page starts Auth.js's Google flow and, once back,
 * tells this window through postMessage; we then finish the sign-in here.
 */
export function GoogleButton({ appId, onSignedIn }: { appId?: string; onSignedIn: () => void }) {
  const open = () => {
    const url = `/auth/google${appId ? `?appId=${encodeURIComponent(appId)}` : ""}`;
    const popup = window.open(url, "google-sign-in", "width=480,height=640");
    if (!popup) {
      window.location.href = url;
      return;
    }
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || event.data?.type !== "auth:google-done") return;
      window.removeEventListener("message", onMessage);
      onSignedIn();
    };
    window.addEventListener("message", onMessage);
  };
  return (
    <Button type="button" variant="outline" className="w-full" onClick={open}>
      Continue with Google
    </Button>
  );
}
