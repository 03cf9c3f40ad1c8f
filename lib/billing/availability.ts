import "server-only";
import { AppError } from "@/lib/errors";
import { isPaidPlan } from "@/lib/plans/capabilities";
import { findPlan, isPlanId, type PlanDefinition } from "@/lib/plans/catalogue";
import type { BillingInterval, CheckoutAvailability } from "@/lib/plans/schemas";
import { stripePriceEnvName, stripePriceId } from "@/lib/plans/stripe-prices";
import { filledError } from "./errors";
import { paymentsConfigured } from "./stripe";
import { grantsPlan } from "./subscription-state";

// Can a plan be bought? The ONE rule, asked by POST /api/billing/checkout (which throws the
// answer) and by GET /api/app/paidPlans (which shows it on each card before anyone clicks), so
// a card never offers what checkout would refuse, and says why with the same message.

/** What the rule reads: whether Stripe is set up, and where the price ids come from. */
export type PaymentConfig = {
  configured: boolean;
  prices: Readonly<Record<string, string | undefined>>;
};

/** The deployment's configuration, read now (price variables are read at call time). */
export function paymentConfig(): PaymentConfig {
  return { configured: paymentsConfigured(), prices: process.env };
}

/** A plan paid once (lifetime-style) is bought through Checkout in payment mode, never as a subscription change. */
export function isOneTimePlan(plan: PlanDefinition): boolean {
  return plan.oneTimePayment !== undefined;
}

/**
 * Is buying this plan a change of the subscription the account already pays for (active,
 * trialing or past_due), rather than a new purchase? Only for recurring plans: a one-time plan
 * keeps Stripe Checkout. Stripe's own view of the subscription has the last word
 * (lib/billing/plan-change.ts findLiveSubscription).
 */
export function changesRunningSubscription(
  plan: PlanDefinition,
  account: { subscriptionId: string | null; planSubscriptionStatus: string | null } | null,
): boolean {
  return (
    !isOneTimePlan(plan) &&
    Boolean(account?.subscriptionId) &&
    grantsPlan(account?.planSubscriptionStatus ?? null)
  );
}

/**
 * Why this plan cannot be bought in this interval, as the error checkout answers; null when it
 * can. Mistakes in the request come first (400), then what the deployment lacks (503).
 */
export function checkoutBlocker(
  planId: string,
  interval: BillingInterval,
  payments: PaymentConfig = paymentConfig(),
): AppError | null {
  if (!isPlanId(planId)) return new AppError("BAD_REQUEST", "checkoutUnknownPlan", "UNKNOWN_PLAN");
  const plan = findPlan(planId);
  if (!isPaidPlan(plan.id)) return new AppError("BAD_REQUEST", "checkoutFreePlan", "FREE_PLAN");
  if (!isOneTimePlan(plan) && interval === "yearly" && plan.priceYearly === null) {
    return filledError(
      "BAD_REQUEST",
      "checkoutIntervalNotOffered",
      { plan: plan.name, interval },
      "INTERVAL_NOT_OFFERED",
    );
  }
  if (!payments.configured) return new AppError("NOT_CONFIGURED", "paymentsNotConfigured");
  if (!stripePriceId(plan.id, interval, payments.prices)) {
    // A deployment that sells the plan but has not set its price: say which variable is missing.
    return filledError(
      "NOT_CONFIGURED",
      "planPriceNotConfigured",
      { plan: plan.name, interval, variable: stripePriceEnvName(plan.id, interval) },
      "PRICE_NOT_CONFIGURED",
    );
  }
  return null;
}

/** The card's view of checkoutBlocker. */
export function checkoutAvailability(
  planId: string,
  interval: BillingInterval,
  payments: PaymentConfig = paymentConfig(),
): CheckoutAvailability {
  const blocker = checkoutBlocker(planId, interval, payments);
  return blocker ? { available: false, code: blocker.code, message: blocker.message } : { available: true };
}
