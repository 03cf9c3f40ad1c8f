"use client";

import { ExternalLinkIcon, Loader2Icon, StarIcon } from "lucide-react";
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
import { messages } from "@/lib/messages";
import type { MembershipProduct, MembershipState } from "@/lib/payments/schemas";
import { fillTemplate } from "@/lib/text";

// The membership gate of a published app with paid memberships: a signed-in end
// user without a membership is offered the product, with a link to buy it on Gumroad, and
// confirms the purchase with "I've bought it" (Gumroad's sales are read for their address).
// It opens when the page loads; closed, a button in the top bar opens it again. Runs are refused
// on the server all the same (402) until the purchase is confirmed.

export function MembershipGate({
  appId,
  product,
  email,
}: {
  appId: string;
  product: MembershipProduct;
  email: string;
}) {
  const router = useRouter();
  const [open, setOpen] = useState(true);
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
      toast.success(messages.membershipActive);
      setOpen(false);
      router.refresh();
    } catch (err) {
      setError(err instanceof ApiError && err.status > 0 ? err.message : messages.membershipCheckFailed);
    } finally {
      setChecking(false);
    }
  };

  return (
    <>
      {/* On a narrow page the top bar has room for the icon only (the name stays for screen readers). */}
      <Button type="button" size="sm" onClick={() => setOpen(true)} aria-label={messages.membershipOpenGate}>
        <StarIcon aria-hidden="true" />
        <span className="hidden @md:inline">{messages.membershipOpenGate}</span>
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent size="md">
          <DialogHeader>
            <DialogTitle>{messages.membershipGateTitle}</DialogTitle>
            <DialogDescription>
              {fillTemplate(messages.membershipGateBody, { product: product.name, email })}
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
                {messages.membershipBuy}
                <span className="sr-only">{` ${messages.membershipNewTab}`}</span>
              </a>
            ) : null}
            <Button type="button" onClick={() => void verify()} disabled={checking} aria-busy={checking}>
              {checking ? <Loader2Icon aria-hidden="true" className="animate-spin" /> : null}
              {checking ? messages.membershipChecking : messages.membershipBought}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
