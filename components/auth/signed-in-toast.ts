"use client";

import { toast } from "sonner";
import { authMessages } from "@/lib/messages/auth";

/**
 * After a code or link sign-in. A notice from the server (a password set before the address was
 * proven was removed) matters more than the greeting, and toasts show one at a time.
 */
export function signedInToast(notice?: string): void {
  if (notice) toast.info(notice, { duration: 20_000 });
  else toast.success(authMessages.magicSignInSuccess);
}
