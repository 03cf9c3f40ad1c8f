import { z } from "zod";
import { PLAN_IDS } from "./catalogue";

// Shapes shared by the plan routes, the upgrade dialog and the tests.

export const BillingInterval = z.enum(["monthly", "yearly"]);
export type BillingInterval = z.infer<typeof BillingInterval>;

export const PlanIdSchema = z.enum(PLAN_IDS);

/**
 * Can a plan be bought right now in one billing interval? Decided on the server by the same
 * rule POST /api/billing/checkout applies (lib/billing/availability.ts); when not, the message
 * that checkout would answer, e.g. the environment variable to set.
 */
export const CheckoutAvailability = z.discriminatedUnion("available", [
  z.object({ available: z.literal(true) }),
  z.object({ available: z.literal(false), code: z.string(), message: z.string() }),
]);
export type CheckoutAvailability = z.infer<typeof CheckoutAvailability>;

/** "Plan card: name, id, price, priceYearly, discounted price, oneTimePayment, description, isMostPopular, buttonText, link". */
export const PlanCard = z.object({
  id: PlanIdSchema,
  name: z.string(),
  /** Monthly price in US dollars. */
  price: z.number().nonnegative(),
  /** Price of a year paid at once; null when the plan is not billed yearly. */
  priceYearly: z.number().nonnegative().nullable(),
  /** Promotional monthly price, shown instead of `price`. */
  discountedPrice: z.number().nonnegative().nullable(),
  /** A single payment instead of a subscription. */
  oneTimePayment: z.number().nonnegative().nullable(),
  description: z.string(),
  isMostPopular: z.boolean(),
  buttonText: z.string(),
  /** Shareable page of the plan (/joinplan?plan=id), null for the free plan. */
  link: z.string().nullable(),
  /** Our addition: the card's bullet points, derived from the plan's capabilities. */
  features: z.array(z.string()),
  /** Our addition: whether checkout is available, per billing interval, and why not. */
  checkout: z.object({ monthly: CheckoutAvailability, yearly: CheckoutAvailability }),
});
export type PlanCard = z.infer<typeof PlanCard>;

/** GET /api/app/paidPlans?appId= */
export const PaidPlansQuery = z.object({ appId: z.uuid().optional() });
export const PaidPlansAnswer = z.object({
  plans: z.array(PlanCard),
  /** Stripe is set up; without it nothing can be bought and an administrator changes plans. */
  paymentsConfigured: z.boolean(),
});
export type PaidPlansAnswer = z.infer<typeof PaidPlansAnswer>;

/**
 * POST /api/billing/checkout: the body the upgrade dialog sends. `confirmChange` is set once the
 * builder has confirmed switching the subscription they already pay for.
 */
export const CheckoutBody = z.object({
  planId: PlanIdSchema,
  interval: BillingInterval,
  confirmChange: z.boolean().optional(),
});
export type CheckoutBody = z.infer<typeof CheckoutBody>;

/**
 * The answer: a Stripe Checkout page to go to (no subscription yet, or a one-time plan); or,
 * for a builder whose subscription runs, the question to confirm before it is switched
 * (prorated); or, once confirmed, the switch under way: `saleId` is polled (GET
 * /api/billing/checkout?sale_id=) until Stripe's webhook has applied the new plan.
 */
export const CheckoutAnswer = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("checkout"), url: z.url() }),
  z.object({
    kind: z.literal("confirmChange"),
    title: z.string(),
    message: z.string(),
    confirmLabel: z.string(),
  }),
  z.object({
    kind: z.literal("planChange"),
    saleId: z.string(),
    plan: PlanIdSchema,
    interval: BillingInterval,
  }),
]);
export type CheckoutAnswer = z.infer<typeof CheckoutAnswer>;
