"use client";

import { useRouter, useSearchParams } from "next/navigation";
import { Suspense, useEffect, useRef } from "react";
import { toast } from "sonner";
import { apiFetch } from "@/components/auth/api-client";
import { SALE_ID_PARAM } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { findPlan } from "@/lib/plans/catalogue";
import { fillTemplate } from "@/lib/text";
import { type AccountSnapshot, type SaleSnapshot, waitForPayment } from "./wait-for-payment";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Mounted in the builder layout. When a signed-in builder comes back from Stripe Checkout to
 * a page with ?sale_id=, it takes sale_id out of the address, refetches the account until the
 * payment webhook has changed the plan, says so, and refreshes the server components so the
 * whole UI shows the new plan without a reload.
 */
export function PaymentReturn() {
  return (
    <Suspense fallback={null}>
      <PaymentReturnWatcher />
    </Suspense>
  );
}

function PaymentReturnWatcher() {
  const router = useRouter();
  const saleId = useSearchParams().get(SALE_ID_PARAM);
  const followed = useRef<string | null>(null);
  const alive = useRef(true);

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  useEffect(() => {
    if (!saleId || followed.current === saleId) return;
    followed.current = saleId;
    removeSaleIdFromAddress();
    void waitForPayment({
      fetchAccount: () => apiFetch<AccountSnapshot>("/api/live_api/account/current"),
      fetchSale: () =>
        apiFetch<SaleSnapshot>(`/api/billing/checkout?${SALE_ID_PARAM}=${encodeURIComponent(saleId)}`),
      sleep,
      stopped: () => !alive.current,
    }).then((outcome) => {
      if (!alive.current) return;
      if (outcome.kind === "paid") {
        toast.success(
          fillTemplate(messages.paymentPlanActive, { plan: findPlan(outcome.account.plan).name }),
        );
        router.refresh();
      } else if (outcome.kind === "failed") {
        toast.error(messages.paymentNotCompleted);
      } else if (outcome.kind === "pending") {
        toast.info(messages.paymentStillProcessing);
      }
    });
  }, [saleId, router]);

  return null;
}

// A reload or a shared link must not start the wait again.
function removeSaleIdFromAddress(): void {
  const url = new URL(window.location.href);
  url.searchParams.delete(SALE_ID_PARAM);
  window.history.replaceState(null, "", `${url.pathname}${url.search}${url.hash}`);
}
