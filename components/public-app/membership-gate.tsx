"use client";

import { StarIcon } from "lucide-react";
import dynamic from "next/dynamic";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { membershipsMessages } from "@/lib/messages/memberships";
import type { MembershipProduct } from "@/lib/payments/schemas";

// The membership gate of a published app with paid memberships: a signed-in end
// user without a membership is offered the product, with a link to buy it on Gumroad, and
// confirms the purchase with "I've bought it" (Gumroad's sales are read for their address).
// It opens when the page loads; closed, a button in the top bar opens it again. Runs are refused
// on the server all the same (402) until the purchase is confirmed.
// The dialog (and the dialog primitives under it) loads only where a gate is shown: every public
// page may show one, few do. A modal is never part of the server's HTML, so nothing shifts.
const MembershipDialog = dynamic(() => import("./membership-dialog").then((m) => m.MembershipDialog), {
  ssr: false,
});

export function MembershipGate({
  appId,
  product,
  email,
}: {
  appId: string;
  product: MembershipProduct;
  email: string;
}) {
  const [open, setOpen] = useState(true);
  return (
    <>
      {/* On a narrow page the top bar has room for the icon only (the name stays for screen readers). */}
      <Button
        type="button"
        size="sm"
        onClick={() => setOpen(true)}
        aria-label={membershipsMessages.membershipOpenGate}
      >
        <StarIcon aria-hidden="true" />
        <span className="hidden @md:inline">{membershipsMessages.membershipOpenGate}</span>
      </Button>
      <MembershipDialog appId={appId} product={product} email={email} open={open} onOpenChange={setOpen} />
    </>
  );
}
