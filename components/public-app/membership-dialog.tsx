"use client";

import { ExternalLinkIcon, Loader2Icon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { ApiError, apiFetch } from "@/components/auth/api-client";
import { Button, buttonVariants } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { safeHref } from "@/lib/apps/safe-link";
import { membershipsMessages } from "@/lib/messages/memberships";
import type { MembershipProduct, MembershipState } from "@/lib/payments/schemas";
import { fillTemplate } from "@/lib/text";

// The dialog of the membership gate (membership-gate.tsx): the product, the link to buy it on
// Gumroad, and "I've bought it", which has the server read Gumroad's sales for the user's address.

export function MembershipDialog({
  appId,
  product,
  email,
  open,
  onOpenChange,
}: {
  appId: string;
  product: MembershipProduct;
  email: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const router = useRouter();
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const buyUrl = safeHref(product.url);

  const verify = async () => {
    setChecking(true);
    setError(null);
    try {
      await apiFetch<MembershipState>(`/api/apps/${encodeURIComponent(appId)}/membership/verify`, {
        method: "POST",
      });
      toast.success(membershipsMessages.membershipActive);
      onOpenChange(false);
      router.refresh();
    } catch (err) {
      setError(
        err instanceof ApiError && err.status > 0 ? err.message : membershipsMessages.membershipCheckFailed,
      );
    } finally {
      setChecking(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent size="md">
        <DialogHeader>
          <DialogTitle>{membershipsMessages.membershipGateTitle}</DialogTitle>
          <DialogDescription>
            {fillTemplate(membershipsMessages.membershipGateBody, { product: product.name, email })}
          </DialogDescription>
        </DialogHeader>
        {error ? (
          <p role="alert" className="text-sm font-medium text-destructive">
            {error}
          </p>
        ) : null}
        <DialogFooter className="sm:flex-wrap">
          {buyUrl ? (
            <a
              href={buyUrl}
              target="_blank"
              rel="noopener noreferrer"
              className={buttonVariants({ variant: "outline" })}
            >
              <ExternalLinkIcon aria-hidden="true" />
              {membershipsMessages.membershipBuy}
              <span className="sr-only">{` ${membershipsMessages.membershipNewTab}`}</span>
            </a>
          ) : null}
          <Button type="button" onClick={() => void verify()} disabled={checking} aria-busy={checking}>
            {checking ? <Loader2Icon aria-hidden="true" className="animate-spin" /> : null}
            {checking ? membershipsMessages.membershipChecking : membershipsMessages.membershipBought}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
