import { isPaidPlan } from "./capabilities";
import { PLAN_CATALOGUE, type PlanId } from "./catalogue";
import type { BillingInterval } from "./schemas";

// Not secret (price ids), so no server-only guard: the end-to-end harness reads the names too.
// Stripe price ids come from the environment, one per paid plan and billing interval:
// STRIPE_PRICE_EXPLORER_MONTHLY, STRIPE_PRICE_EXPLORER_YEARLY, ... STRIPE_PRICE_AGENCY_YEARLY.
// Read here, at call time, so a deployment can set them without a code change.

type EnvSource = Readonly<Record<string, string | undefined>>;

/** The variable holding a plan's price id, e.g. STRIPE_PRICE_MOON_YEARLY. */
export function stripePriceEnvName(planId: PlanId, interval: BillingInterval): string {
  return `STRIPE_PRICE_${planId.toUpperCase()}_${interval.toUpperCase()}`;
}

/** Every variable the catalogue can read (paid plans only; the yearly one where a yearly price exists). */
export function stripePriceEnvNames(): string[] {
  return PLAN_CATALOGUE.filter((p) => isPaidPlan(p.id)).flatMap((p) => [
    stripePriceEnvName(p.id, "monthly"),
    ...(p.priceYearly === null ? [] : [stripePriceEnvName(p.id, "yearly")]),
  ]);
}

/** The Stripe price id of a plan and interval, or null when its variable is not set. */
export function stripePriceId(
  planId: PlanId,
  interval: BillingInterval,
  source: EnvSource = process.env,
): string | null {
  return source[stripePriceEnvName(planId, interval)]?.trim() || null;
}

/** The plan and interval a Stripe price id belongs to (webhooks read it back); null if none. */
export function planForStripePrice(
  priceId: string,
  source: EnvSource = process.env,
): { planId: PlanId; interval: BillingInterval } | null {
  for (const plan of PLAN_CATALOGUE) {
    if (!isPaidPlan(plan.id)) continue;
    for (const interval of ["monthly", "yearly"] as const) {
      if (stripePriceId(plan.id, interval, source) === priceId) return { planId: plan.id, interval };
    }
  }
  return null;
}
