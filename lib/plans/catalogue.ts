import { FREE_PLAN } from "@/lib/constants";

// The plan catalogue: every plan the product sells, in tier order. Prices are US dollars and
// are what the cards show; the amounts actually charged live in Stripe, under the price ids
// read by lib/plans/stripe-prices.ts, and must match these figures.
// Limits are not here: they are decided in lib/plans/capabilities.ts alone.

export const PLAN_IDS = ["lite", "explorer", "monetizer", "moon", "agency"] as const;
export type PlanId = (typeof PLAN_IDS)[number];

/** The free plan every account starts on, and the fallback for an unknown plan name. */
export const FREE_PLAN_ID: PlanId = FREE_PLAN;

export type PlanDefinition = {
  id: PlanId;
  name: string;
  /** Position in the tier order: 0 is free, higher is more. Upgrade vs downgrade compares it. */
  rank: number;
  /** Monthly price. */
  price: number;
  /** Price for a year paid at once; null when the plan has no yearly billing. */
  priceYearly: number | null;
  /** A promotional monthly price shown instead of `price`, with `price` struck through. */
  discountedPrice?: number;
  /** A single payment instead of a subscription (lifetime-style plans). */
  oneTimePayment?: number;
  description: string;
  isMostPopular: boolean;
  buttonText: string;
};

export const PLAN_CATALOGUE: readonly PlanDefinition[] = [
  {
    id: "lite",
    name: "Lite",
    rank: 0,
    price: 0,
    priceYearly: null,
    description: "Build and publish your first AI tool.",
    isMostPopular: false,
    buttonText: "Start for free",
  },
  {
    id: "explorer",
    name: "Explorer",
    rank: 1,
    price: 20,
    priceYearly: 192,
    description: "For makers launching their first real tools.",
    isMostPopular: false,
    buttonText: "Upgrade to Explorer",
  },
  {
    id: "monetizer",
    name: "Monetizer",
    rank: 2,
    price: 50,
    priceYearly: 480,
    description: "Grow an audience and earn from your tools.",
    isMostPopular: true,
    buttonText: "Upgrade to Monetizer",
  },
  {
    id: "moon",
    name: "Moon",
    rank: 3,
    price: 100,
    priceYearly: 960,
    description: "Generated multi-tool apps with full app settings.",
    isMostPopular: false,
    buttonText: "Upgrade to Moon",
  },
  {
    id: "agency",
    name: "Agency",
    rank: 4,
    price: 300,
    priceYearly: 2880,
    description: "For teams building apps for many clients.",
    isMostPopular: false,
    buttonText: "Upgrade to Agency",
  },
];

const byId = new Map<string, PlanDefinition>(PLAN_CATALOGUE.map((p) => [p.id, p]));

export function isPlanId(value: string): value is PlanId {
  return byId.has(value);
}

/** The plan of that id; an unknown name (a retired plan, a typo in the database) is the free plan. */
export function findPlan(planId: string): PlanDefinition {
  return byId.get(planId) ?? byId.get(FREE_PLAN_ID)!;
}
