"use client";

import { useRouter } from "next/navigation";
import { useOnce } from "./actions/use-once";
import { AuthCard } from "./auth-card";

/** Back from Google in the popup: tell the opener, then close. Without an opener, go home. */
export function PopupDone() {
  const router = useRouter();
  useOnce(() => {
    if (window.opener) {
      window.opener.postMessage({ type: "auth:google-done" }, window.location.origin);
      window.close();
    } else {
      router.replace("/home");
    }
  });
  return <AuthCard title="Signed in" description="You can close this window." />;
}
