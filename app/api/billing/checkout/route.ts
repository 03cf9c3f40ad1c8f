import { route } from "@/lib/api/route";
import { createCheckout, getSaleStatus } from "@/lib/billing/checkout";
import { CheckoutRequest, SaleQuery, SaleStatusAnswer } from "@/lib/billing/schemas";
import { CheckoutAnswer } from "@/lib/plans/schemas";

// POST /api/billing/checkout - for { planId, interval }: a Stripe Checkout page, or the switch of the
// running subscription (first the question to confirm, then the change under way)
export const POST = route(
  // 409 ALREADY_ON_PLAN: the running subscription already has this price; 503: payments not configured
  { auth: "builder", body: CheckoutRequest, response: CheckoutAnswer, errors: [409, 503] },
  async ({ session, body }) => createCheckout(session, body),
);

// GET /api/billing/checkout?sale_id= - where the caller's own sale stands (pending, paid, ...)
export const GET = route(
  // 404 SALE_NOT_FOUND: no sale of the caller has that id
  { auth: "builder", query: SaleQuery, response: SaleStatusAnswer, errors: [404] },
  async ({ session, query }) => getSaleStatus(session, query.sale_id),
);
