import { route } from "@/lib/api/route";
import { handleStripeWebhook } from "@/lib/billing/webhooks";

// POST /api/webhooks/stripe - Stripe's signed events. Public: the signature over the raw body
// is the authorization, so the body is read as bytes here and never parsed before it is checked.
export const POST = route({ auth: "public", raw: true, cap: "stripeWebhook" }, ({ req, raw }) =>
  handleStripeWebhook(raw, req.headers.get("stripe-signature")),
);
