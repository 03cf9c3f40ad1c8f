import { z } from "zod";
import { BillingInterval } from "@/lib/plans/schemas";
import { storableString } from "@/lib/storable-text";

// Shapes of the payment routes. The upgrade dialog sends lib/plans/schemas.ts' CheckoutBody;
// the route accepts any plan name so that an unknown one gets its own clear message.

/** POST /api/billing/checkout */
export const CheckoutRequest = z
  .object({
    planId: storableString().trim().min(1).max(64),
    interval: BillingInterval,
    /** The builder confirmed switching the subscription that runs (prorated). */
    confirmChange: z.boolean().optional(),
  })
  .meta({ examples: [{ planId: "explorer", interval: "monthly" }] });
export type CheckoutRequest = z.infer<typeof CheckoutRequest>;

/** GET /api/billing/checkout?sale_id= */
export const SaleQuery = z.object({ sale_id: storableString().trim().min(1).max(255) });

/** Where a sale stands (the caller's own). */
export const SaleStatusAnswer = z.object({
  saleId: storableString(),
  status: z.enum(["pending", "paid", "failed", "expired"]),
  plan: storableString(),
});
export type SaleStatusAnswer = z.infer<typeof SaleStatusAnswer>;

/** POST /api/webhooks/stripe: the event was verified; `duplicate` when it had been applied before. */
export const WebhookReceivedAnswer = z.object({ received: z.literal(true), duplicate: z.boolean() });
export type WebhookReceivedAnswer = z.infer<typeof WebhookReceivedAnswer>;
