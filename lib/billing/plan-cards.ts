import { checkoutAvailability, type PaymentConfig, paymentConfig } from "@/lib/billing/availability";
import { isPaidPlan } from "@/lib/plans/capabilities";
import { PLAN_CATALOGUE, type PlanDefinition } from "@/lib/plans/catalogue";
import { planFeatures } from "@/lib/plans/features";
import type { PlanCard } from "@/lib/plans/schemas";

/** The page where a plan can be picked; shareable, and the link a plan card carries. */
export function planLink(planId: string): string {
  return `/joinplan?plan=${encodeURIComponent(planId)}`;
}

export function toPlanCard(plan: PlanDefinition, payments: PaymentConfig): PlanCard {
  return {
    id: plan.id,
    name: plan.name,
    price: plan.price,
    priceYearly: plan.priceYearly,
    discountedPrice: plan.discountedPrice ?? null,
    oneTimePayment: plan.oneTimePayment ?? null,
    description: plan.description,
    isMostPopular: plan.isMostPopular,
    buttonText: plan.buttonText,
    link: isPaidPlan(plan.id) ? planLink(plan.id) : null,
    features: planFeatures(plan.id),
    checkout: {
      monthly: checkoutAvailability(plan.id, "monthly", payments),
      yearly: checkoutAvailability(plan.id, "yearly", payments),
    },
  };
}

/**
 * GET /api/app/paidPlans: every plan card in tier order, the free one included (the dialog
 * shows it as the current plan, or disabled under a paid one), each saying whether checkout is
 * available and, if not, why (read from this deployment's configuration when the list is made).
 * `appId` is accepted as context for per-app offers later; the catalogue is the same for every
 * app today.
 */
export function listPlanCards(opts: { appId?: string; payments?: PaymentConfig } = {}): {
  plans: PlanCard[];
  paymentsConfigured: boolean;
} {
  const payments = opts.payments ?? paymentConfig();
  return {
    paymentsConfigured: payments.configured,
    plans: [...PLAN_CATALOGUE].sort((a, b) => a.rank - b.rank).map((plan) => toPlanCard(plan, payments)),
  };
}
