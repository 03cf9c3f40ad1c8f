"use client";

import { toast } from "sonner";
import { ApiError, apiFetch } from "@/components/auth/api-client";
import {
  type AccountSnapshot,
  type SaleSnapshot,
  waitForPayment,
} from "@/components/billing/wait-for-payment";
import { SALE_ID_PARAM } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { findPlan } from "@/lib/plans/catalogue";
import { type BillingInterval, CheckoutAnswer, type CheckoutBody } from "@/lib/plans/schemas";
import { fillTemplate } from "@/lib/text";

/** Where asking for a plan got to. */
export type PlanRequest =
  /** The browser is going to Stripe Checkout. */
  | { kind: "leaving" }
  /** A subscription runs: the server asks to confirm switching it (prorated). */
  | { kind: "confirm"; title: string; message: string; confirmLabel: string }
  /** The switch is made at Stripe; its webhook applies the plan (followPlanChange waits for it). */
  | { kind: "changing"; saleId: string; plan: string }
  /** Nothing happened; a toast said why. */
  | { kind: "failed" };

/**
 * POST /api/billing/checkout { planId, interval, confirmChange }. A Checkout answer sends the
 * browser to Stripe; the other answers are for the caller. On failure the server's message is
 * shown in a toast (for example the variable to set when Stripe is not configured).
 */
export async function requestPlan(
  planId: string,
  interval: BillingInterval,
  confirmChange = false,
): Promise<PlanRequest> {
  try {
    const body: CheckoutBody = {
      planId: planId as CheckoutBody["planId"],
      interval,
      ...(confirmChange ? { confirmChange: true } : {}),
    };
    const parsed = CheckoutAnswer.safeParse(await apiFetch("/api/billing/checkout", { body }));
    if (!parsed.success) {
      toast.error(messages.internal);
      return { kind: "failed" };
    }
    const answer = parsed.data;
    switch (answer.kind) {
      case "checkout":
        if (!/^https?:$/.test(new URL(answer.url).protocol)) {
          toast.error(messages.internal);
          return { kind: "failed" };
        }
        window.location.assign(answer.url);
        return { kind: "leaving" };
      case "confirmChange":
        return {
          kind: "confirm",
          title: answer.title,
          message: answer.message,
          confirmLabel: answer.confirmLabel,
        };
      case "planChange":
        return { kind: "changing", saleId: answer.saleId, plan: answer.plan };
    }
  } catch (err) {
    toast.error(err instanceof ApiError ? err.message : messages.internal);
    return { kind: "failed" };
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Waits until Stripe's webhook has applied a plan change (the account is refetched, polled
 * every 4000 ms up to 15 tries, as after a payment) and says how it went. True when the new
 * plan is on.
 */
export async function followPlanChange(change: { saleId: string; plan: string }): Promise<boolean> {
  const outcome = await waitForPayment({
    fetchAccount: () => apiFetch<AccountSnapshot>("/api/live_api/account/current"),
    fetchSale: () =>
      apiFetch<SaleSnapshot>(`/api/billing/checkout?${SALE_ID_PARAM}=${encodeURIComponent(change.saleId)}`),
    sleep,
  });
  if (outcome.kind === "paid") {
    // The change's own plan: the webhook settles it only once the subscription has that price.
    toast.success(fillTemplate(messages.planChanged, { plan: findPlan(change.plan).name }));
    return true;
  }
  if (outcome.kind === "failed") toast.error(messages.planChangeNotApplied);
  else if (outcome.kind === "pending") toast.info(messages.planChangeStillProcessing);
  return false;
}
