import "server-only";
import Stripe from "stripe";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";

// The one Stripe client. STRIPE_API_BASE points the real SDK at another server speaking
// Stripe's REST API (the local double in tests); unset, it talks to api.stripe.com.

let cached: { key: string; base: string | undefined; client: Stripe } | undefined;

/** Both variables are needed: a checkout whose webhook cannot be verified would take money we never record. */
export function paymentsConfigured(): boolean {
  const e = env();
  return Boolean(e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET);
}

export function assertPaymentsConfigured(): void {
  if (!paymentsConfigured()) throw new AppError("NOT_CONFIGURED", "paymentsNotConfigured");
}

export function stripeClient(): Stripe {
  const { STRIPE_SECRET_KEY: key, STRIPE_API_BASE: base } = env();
  if (!key) throw new AppError("NOT_CONFIGURED", "paymentsNotConfigured");
  if (cached?.key === key && cached.base === base) return cached.client;
  const client = new Stripe(key, {
    ...apiBaseOptions(base),
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: "builder" },
  });
  cached = { key, base, client };
  return client;
}

/** The webhook signing secret (whsec_...). */
export function webhookSecret(): string {
  const secret = env().STRIPE_WEBHOOK_SECRET;
  if (!secret) throw new AppError("NOT_CONFIGURED", "paymentsNotConfigured");
  return secret;
}

/** Verifies a webhook's signature over the raw body and parses it; throws on any mismatch. */
export function constructWebhookEvent(raw: Uint8Array, signature: string, toleranceS: number): Stripe.Event {
  return Stripe.webhooks.constructEvent(raw, signature, webhookSecret(), toleranceS);
}

function apiBaseOptions(base: string | undefined): Pick<Stripe.StripeConfig, "host" | "port" | "protocol"> {
  if (!base) return {};
  const url = new URL(base);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return {
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: url.port || (protocol === "http" ? 80 : 443),
    protocol,
  };
}
