import type { Metadata } from "next";
import { Suspense } from "react";
import { ActionHandler } from "@/components/auth/action-handler";

export const metadata: Metadata = { title: "Account" };

// Where every emailed link lands: verify email, reset password, confirm email change, magic link.
export default function AuthHandlerPage() {
  return (
    <Suspense>
      <ActionHandler />
    </Suspense>
  );
}
