"use client";

import { Loader2Icon } from "lucide-react";
import { useRouter } from "next/navigation";
import { signOut } from "next-auth/react";
import { useEffect } from "react";
import { homeMessages } from "@/lib/messages/home";
import { AuthCard } from "./auth-card";
import { setBearerToken } from "./token-store";

/** Clears the bearer token and account data in memory and the auth cookie, then leaves. */
export function LogoutRunner({ to, children }: { to: string | null; children?: React.ReactNode }) {
  const router = useRouter();
  useEffect(() => {
    setBearerToken(null);
    void signOut({ redirect: false }).then(() => {
      if (to) router.replace(to);
      router.refresh();
    });
  }, [router, to]);
  return (
    children ?? (
      <AuthCard title={homeMessages.loggingOut} description={homeMessages.loggingOutText}>
        <div role="status" aria-live="polite" className="flex justify-center">
          <Loader2Icon
            className="size-5 animate-spin text-muted-foreground motion-reduce:animate-none"
            aria-hidden
          />
          <span className="sr-only">{homeMessages.loggingOut}</span>
        </div>
      </AuthCard>
    )
  );
}
