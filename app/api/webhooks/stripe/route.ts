import { route } from "@/lib/api/route";
import { WebhookReceivedAnswer } from "@/lib/billing/schemas";
import { handleStripeWebhook } from "@/lib/billing/webhooks";

// POST /api/webhooks/stripe - Stripe's signed events. Public: the signature over the raw body
// is the authorization, so the body is read as bytes here and never parsed before it is checked.
export const POST = route(
  // 400 INVALID_SIGNATURE: unsigned, forged or stale; 503: payments not configured
  { auth: "public", raw: true, cap: "stripeWebhook", response: WebhookReceivedAnswer, errors: [503] },
  ({ req, raw }) => handleStripeWebhook(raw, req.headers.get("stripe-signature")),
);
