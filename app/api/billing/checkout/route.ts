import { route } from "@/lib/api/route";
import { createCheckout, getSaleStatus } from "@/lib/billing/checkout";
import { CheckoutRequest, SaleQuery } from "@/lib/billing/schemas";

// POST /api/billing/checkout - a Stripe Checkout Session for { planId, interval }; answers { url }
export const POST = route({ auth: "builder", body: CheckoutRequest }, async ({ session, body }) =>
  createCheckout(session, body),
);

// GET /api/billing/checkout?sale_id= - where the caller's own sale stands (pending, paid, ...)
export const GET = route({ auth: "builder", query: SaleQuery }, async ({ session, query }) =>
  getSaleStatus(session, query.sale_id),
);
