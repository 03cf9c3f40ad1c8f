"use client";

import { useRouter } from "next/navigation";
import { signOut } from "next-auth/react";
import { useEffect } from "react";
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
  return children ?? <p className="text-center text-sm text-muted-foreground">Logging out...</p>;
}
