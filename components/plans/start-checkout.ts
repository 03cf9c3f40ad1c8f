"use client";

import { toast } from "sonner";
import { ApiError, apiFetch } from "@/components/auth/api-client";
import { messages } from "@/lib/messages";
import { type BillingInterval, type CheckoutBody, CheckoutResponse } from "@/lib/plans/schemas";

/**
 * Starts a Stripe checkout for a plan: POST /api/billing/checkout { planId, interval }, then
 * the browser goes to the answered url. On failure the server's message is shown in a toast
 * (for example a 503 naming the variable to set when Stripe is not configured) and false is
 * returned so the button can be pressed again.
 */
export async function startCheckout(planId: string, interval: BillingInterval): Promise<boolean> {
  try {
    const body: CheckoutBody = { planId: planId as CheckoutBody["planId"], interval };
    const answer = CheckoutResponse.safeParse(await apiFetch("/api/billing/checkout", { body }));
    if (!answer.success || !/^https?:$/.test(new URL(answer.data.url).protocol)) {
      toast.error(messages.internal);
      return false;
    }
    window.location.assign(answer.data.url);
    return true;
  } catch (err) {
    toast.error(err instanceof ApiError ? err.message : messages.internal);
    return false;
  }
}
