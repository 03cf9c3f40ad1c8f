import { isPaidPlan } from "../../lib/plans/capabilities";
import { PLAN_CATALOGUE } from "../../lib/plans/catalogue";
import { stripePriceEnvName } from "../../lib/plans/stripe-prices";
import { type StripePrice, type StripeServer, startStripeServer } from "./stripe-server";

/**
 * The local Stripe double set up for a running app: one price per paid plan and interval
 * (amounts from the catalogue), webhooks delivered to the app's /api/webhooks/stripe, and the
 * environment the app needs to use it (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET,
 * STRIPE_API_BASE and every STRIPE_PRICE_* variable).
 */
export async function startStripeForApp(
  appUrl: string,
): Promise<{ server: StripeServer; env: Record<string, string> }> {
  const prices: Record<string, StripePrice> = {};
  const priceEnv: Record<string, string> = {};
  for (const plan of PLAN_CATALOGUE.filter((p) => isPaidPlan(p.id))) {
    const monthly = `price_${plan.id}_monthly`;
    prices[monthly] = { unitAmount: Math.round(plan.price * 100), recurring: { interval: "month" } };
    priceEnv[stripePriceEnvName(plan.id, "monthly")] = monthly;
    if (plan.priceYearly !== null) {
      const yearly = `price_${plan.id}_yearly`;
      prices[yearly] = { unitAmount: Math.round(plan.priceYearly * 100), recurring: { interval: "year" } };
      priceEnv[stripePriceEnvName(plan.id, "yearly")] = yearly;
    }
  }
  const server = await startStripeServer({ prices, webhook: `${appUrl}/api/webhooks/stripe` });
  return {
    server,
    env: {
      STRIPE_SECRET_KEY: server.secretKey,
      STRIPE_WEBHOOK_SECRET: server.webhookSecret,
      STRIPE_API_BASE: server.url,
      ...priceEnv,
    },
  };
}
