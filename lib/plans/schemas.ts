import { z } from "zod";
import { PLAN_IDS } from "./catalogue";

// Shapes shared by the plan routes, the upgrade dialog and the tests.

export const BillingInterval = z.enum(["monthly", "yearly"]);
export type BillingInterval = z.infer<typeof BillingInterval>;

export const PlanIdSchema = z.enum(PLAN_IDS);

/** "Plan card: name, id, price, priceYearly, discounted price, oneTimePayment, description, isMostPopular, buttonText, link" (spec 1 §3). */
export const PlanCard = z.object({
  id: z.string(),
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
});
export type PlanCard = z.infer<typeof PlanCard>;

/** GET /api/app/paidPlans?appId= */
export const PaidPlansQuery = z.object({ appId: z.uuid().optional() });
export const PaidPlansResponse = z.object({ plans: z.array(PlanCard) });
export type PaidPlansResponse = z.infer<typeof PaidPlansResponse>;

/** POST /api/billing/checkout: the body the upgrade dialog sends; the answer carries the checkout url. */
export const CheckoutBody = z.object({ planId: PlanIdSchema, interval: BillingInterval });
export type CheckoutBody = z.infer<typeof CheckoutBody>;
export const CheckoutResponse = z.object({ url: z.url() });
