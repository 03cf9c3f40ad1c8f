import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import * as paidPlans from "@/app/api/app/paidPlans/route";
import * as checkout from "@/app/api/billing/checkout/route";
import * as create from "@/app/api/live_api/account/create/route";
import * as current from "@/app/api/live_api/account/current/route";
import * as webhook from "@/app/api/webhooks/stripe/route";
import { db } from "@/db/client";
import { accounts, checkoutSales } from "@/db/schema";
import { messages } from "@/lib/messages";
import { PLAN_CATALOGUE } from "@/lib/plans/catalogue";
import { PaidPlansAnswer, type PlanCard } from "@/lib/plans/schemas";
import { createBuilder, createEndUser, createPublishedApp } from "../support/factories";
import { call } from "../support/http";
import { catalogueStripePrices, startStripeServer, stripeServerEnv } from "../support/stripe-server";

// Checkout through the real `stripe` SDK against the local Stripe double; payments complete
// by visiting the double's hosted checkout page, which delivers signed webhooks to our route.
// lib/env reads the environment once, so it is set here, before any request.
const APP_URL = "https://builder.example.test";
const { prices, env: priceEnv } = catalogueStripePrices(PLAN_CATALOGUE);
const stripe = await startStripeServer({ prices });
Object.assign(process.env, { APP_URL, ...stripeServerEnv(stripe), ...priceEnv });
stripe.setWebhookTarget((raw, headers) =>
  call(webhook.POST, { path: "/api/webhooks/stripe", rawBody: raw, headers }),
);

afterAll(() => stripe.close());

type Account = { plan: string; subscriptionId: string | null; planSubscriptionStatus: string | null };

async function startCheckout(token: string, planId = "explorer", interval = "monthly") {
  return call<{ url: string; error?: { code: string; message: string } }>(checkout.POST, {
    path: "/api/billing/checkout",
    token,
    body: { planId, interval },
  });
}

/** The buyer visits the hosted checkout page and pays; answers where Stripe sends them back. */
async function payAt(url: string): Promise<URL> {
  const res = await fetch(url, { redirect: "manual" });
  expect(res.status).toBe(303);
  return new URL(res.headers.get("location")!);
}

const saleIdOf = (url: string) => new URL(url).pathname.split("/").pop()!;

async function accountOf(token: string) {
  const res = await call<Account>(current.GET, {
    method: "GET",
    path: "/api/live_api/account/current",
    token,
  });
  return res.json;
}

async function saleRow(saleId: string) {
  const [row] = await db().select().from(checkoutSales).where(eq(checkoutSales.saleId, saleId));
  return row;
}

describe("POST /api/billing/checkout", () => {
  it("creates a subscription Checkout Session through the Stripe SDK and records a pending sale", async () => {
    const { user, account, token } = await createBuilder();
    const res = await startCheckout(token, "monetizer", "yearly");
    expect(res.status).toBe(200);
    expect(res.json.url).toMatch(new RegExp(`^${stripe.url}/c/pay/cs_test_`));
    const saleId = saleIdOf(res.json.url);

    const sent = stripe.requests.filter((r) => r.path === "/v1/checkout/sessions").at(-1)!;
    expect(sent.authorization).toBe(`Bearer ${stripe.secretKey}`);
    const metadata = {
      userId: user.id,
      accountId: account.accountId,
      planId: "monetizer",
      interval: "yearly",
    };
    expect(sent.body).toMatchObject({
      mode: "subscription",
      line_items: [{ price: "price_monetizer_yearly", quantity: "1" }],
      client_reference_id: user.id,
      customer_email: user.email,
      metadata,
      subscription_data: { metadata },
      success_url: `${APP_URL}/home?sale_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${APP_URL}/home?goto=upgrade_app_plan`,
    });
    expect(await saleRow(saleId)).toMatchObject({
      userId: user.id,
      email: user.email,
      plan: "monetizer",
      interval: "yearly",
      status: "pending",
    });
  });

  it("builds its links from APP_URL, never from the Host header", async () => {
    const { token } = await createBuilder();
    const res = await call<{ url: string }>(checkout.POST, {
      path: "/api/billing/checkout",
      token,
      body: { planId: "explorer", interval: "monthly" },
      headers: { host: "evil.example", "x-forwarded-host": "evil.example" },
    });
    expect(res.status).toBe(200);
    const session = stripe.session(saleIdOf(res.json.url))!;
    expect(session.success_url).toBe(`${APP_URL}/home?sale_id={CHECKOUT_SESSION_ID}`);
    expect(session.cancel_url).toBe(`${APP_URL}/home?goto=upgrade_app_plan`);
  });

  it("changes the plan only when the signed webhook says the payment went through", async () => {
    const { token } = await createBuilder();
    const res = await startCheckout(token, "explorer", "monthly");
    const saleId = saleIdOf(res.json.url);
    expect((await accountOf(token)).plan).toBe("lite");
    const sale = await call(checkout.GET, {
      method: "GET",
      path: `/api/billing/checkout?sale_id=${saleId}`,
      token,
    });
    expect(sale.json).toEqual({ saleId, status: "pending", plan: "explorer" });

    const back = await payAt(res.json.url);
    expect(back.origin + back.pathname).toBe(`${APP_URL}/home`);
    expect(back.searchParams.get("sale_id")).toBe(saleId);

    const account = await accountOf(token);
    const subscriptionId = stripe.session(saleId)!.subscription as string;
    expect(account).toMatchObject({ plan: "explorer", subscriptionId, planSubscriptionStatus: "active" });
    const paid = await call(checkout.GET, {
      method: "GET",
      path: `/api/billing/checkout?sale_id=${saleId}`,
      token,
    });
    expect(paid.json).toEqual({ saleId, status: "paid", plan: "explorer" });
    expect(stripe.deliveries.filter((d) => d.status !== 200)).toEqual([]);
  });

  it("account/create answers 401 for a sale until the webhook, then 200 with the new plan", async () => {
    const { user, token } = await createBuilder({ withAccount: false });
    const res = await startCheckout(token, "moon", "monthly");
    expect(res.status).toBe(200);
    const saleId = saleIdOf(res.json.url);
    expect(stripe.requests.at(-1)!.body.metadata).toEqual({
      userId: user.id,
      planId: "moon",
      interval: "monthly",
    });

    const path = `/api/live_api/account/create?sale_id=${saleId}`;
    const before = await call(create.POST, { path, token });
    expect(before.status).toBe(401);
    expect(before.json.error).toEqual({ code: "NOT_YET_READY", message: messages.notYetReady });

    await payAt(res.json.url);

    const after = await call<{ accountId: string }>(create.POST, { path, token });
    expect(after.status).toBe(200);
    const me = await call<Account & { accountId: string }>(current.GET, {
      method: "GET",
      path: "/api/live_api/account/current",
      token,
    });
    expect(me.json).toMatchObject({
      accountId: after.json.accountId,
      accountType: "builder",
      plan: "moon",
      planSubscriptionStatus: "active",
    });
  });

  it("does not let another builder use someone else's sale", async () => {
    const buyer = await createBuilder();
    const other = await createBuilder({ withAccount: false });
    const res = await startCheckout(buyer.token);
    const saleId = saleIdOf(res.json.url);
    await payAt(res.json.url);
    const create401 = await call(create.POST, {
      path: `/api/live_api/account/create?sale_id=${saleId}`,
      token: other.token,
    });
    expect(create401.status).toBe(401);
    const sale = await call(checkout.GET, {
      method: "GET",
      path: `/api/billing/checkout?sale_id=${saleId}`,
      token: other.token,
    });
    expect(sale.status).toBe(404);
    expect(sale.json.error).toEqual({ code: "SALE_NOT_FOUND", message: messages.paymentNotFound });
  });

  it("reuses the Stripe customer of a builder who paid before", async () => {
    const { token } = await createBuilder();
    const first = await startCheckout(token, "explorer", "monthly");
    await payAt(first.json.url);
    const customer = stripe.session(saleIdOf(first.json.url))!.customer;
    expect(customer).toMatch(/^cus_/);
    // That subscription ended: the next plan is a new checkout (while it runs, it is a switch).
    await stripe.cancelSubscription(stripe.session(saleIdOf(first.json.url))!.subscription as string);
    const second = await startCheckout(token, "moon", "yearly");
    expect(second.json).toMatchObject({ kind: "checkout" });
    expect(second.status).toBe(200);
    const sent = stripe.requests.filter((r) => r.path === "/v1/checkout/sessions").at(-1)!;
    expect(sent.body.customer).toBe(customer);
    expect(sent.body.customer_email).toBeUndefined();
    // The completed second checkout switches the account to its subscription.
    await payAt(second.json.url);
    const account = await accountOf(token);
    expect(account).toMatchObject({
      plan: "moon",
      subscriptionId: stripe.session(saleIdOf(second.json.url))!.subscription,
    });
  });

  it("falls back to the email when Stripe no longer knows the remembered customer", async () => {
    const { user, account, token } = await createBuilder();
    await db()
      .update(accounts)
      .set({ stripeCustomerId: "cus_from_test_mode" })
      .where(eq(accounts.accountId, account.accountId));
    const res = await startCheckout(token);
    expect(res.status).toBe(200);
    const [refused, sent] = stripe.requests.filter((r) => r.path === "/v1/checkout/sessions").slice(-2);
    expect(refused!.body.customer).toBe("cus_from_test_mode");
    expect(sent!.body).toMatchObject({ customer_email: user.email });
    expect(sent!.body.customer).toBeUndefined();
    await payAt(res.json.url);
    const [row] = await db().select().from(accounts).where(eq(accounts.accountId, account.accountId));
    expect(row?.stripeCustomerId).toBe(stripe.session(saleIdOf(res.json.url))!.customer);
  });

  it("sends a buyer who backs out to the upgrade dialog, and an expired session changes nothing", async () => {
    const { token } = await createBuilder();
    const res = await startCheckout(token);
    const saleId = saleIdOf(res.json.url);
    const back = await fetch(`${res.json.url}?cancel=1`, { redirect: "manual" });
    expect(back.headers.get("location")).toBe(`${APP_URL}/home?goto=upgrade_app_plan`);
    await stripe.expireSession(saleId);
    expect((await saleRow(saleId))?.status).toBe("expired");
    expect((await accountOf(token)).plan).toBe("lite");
  });

  it("refuses unknown plans, the free plan and bad intervals with clear messages", async () => {
    const { token } = await createBuilder();
    const unknown = await startCheckout(token, "platinum", "monthly");
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toEqual({ code: "UNKNOWN_PLAN", message: messages.checkoutUnknownPlan });
    const free = await startCheckout(token, "lite", "monthly");
    expect(free.status).toBe(400);
    expect(free.json.error).toEqual({ code: "FREE_PLAN", message: messages.checkoutFreePlan });
    const interval = await startCheckout(token, "explorer", "weekly");
    expect(interval.status).toBe(400);
    expect(interval.json.error?.code).toBe("INVALID_INPUT");
  });

  it("names the missing price variable when a plan's Stripe price is not configured", async () => {
    const { token } = await createBuilder();
    const saved = process.env.STRIPE_PRICE_AGENCY_YEARLY;
    delete process.env.STRIPE_PRICE_AGENCY_YEARLY;
    try {
      const res = await startCheckout(token, "agency", "yearly");
      expect(res.status).toBe(503);
      expect(res.json.error).toEqual({
        code: "PRICE_NOT_CONFIGURED",
        message: "Payments for Agency (yearly) are not configured: set STRIPE_PRICE_AGENCY_YEARLY",
      });
    } finally {
      process.env.STRIPE_PRICE_AGENCY_YEARLY = saved;
    }
  });

  it("says so when Stripe refuses the session, and records no sale", async () => {
    const { user, token } = await createBuilder();
    const saved = process.env.STRIPE_PRICE_AGENCY_MONTHLY;
    process.env.STRIPE_PRICE_AGENCY_MONTHLY = "price_deleted_in_stripe";
    try {
      const res = await startCheckout(token, "agency", "monthly");
      expect(res.status).toBe(500);
      expect(res.json.error).toEqual({ code: "CHECKOUT_FAILED", message: messages.checkoutFailed });
    } finally {
      process.env.STRIPE_PRICE_AGENCY_MONTHLY = saved;
    }
    const sales = await db().select().from(checkoutSales).where(eq(checkoutSales.userId, user.id));
    expect(sales).toEqual([]);
  });

  it("is for builders only", async () => {
    const owner = await createBuilder();
    const app = await createPublishedApp(owner.account.accountId);
    const endUser = await createEndUser(app.id);
    expect((await startCheckout(endUser.token)).status).toBe(403);
    const anonymous = await call(checkout.POST, {
      path: "/api/billing/checkout",
      body: { planId: "explorer", interval: "monthly" },
    });
    expect(anonymous.status).toBe(401);
  });
});

describe("GET /api/app/paidPlans with Stripe configured", () => {
  async function cards(token: string): Promise<PlanCard[]> {
    const res = await call(paidPlans.GET, { method: "GET", path: "/api/app/paidPlans", token });
    expect(res.status).toBe(200);
    return PaidPlansAnswer.parse(res.json).plans;
  }

  it("offers checkout on every paid card, in both intervals", async () => {
    const { token } = await createBuilder();
    for (const card of (await cards(token)).filter((c) => c.id !== "lite")) {
      expect(card.checkout).toEqual({ monthly: { available: true }, yearly: { available: true } });
    }
  });

  it("names the missing price variable on that card and interval, as checkout would answer it", async () => {
    const { token } = await createBuilder();
    const saved = process.env.STRIPE_PRICE_AGENCY_YEARLY;
    delete process.env.STRIPE_PRICE_AGENCY_YEARLY;
    try {
      const agency = (await cards(token)).find((c) => c.id === "agency")!;
      expect(agency.checkout.monthly).toEqual({ available: true });
      const refused = await startCheckout(token, "agency", "yearly");
      expect(agency.checkout.yearly).toEqual({ available: false, ...refused.json.error });
      expect(agency.checkout.yearly).toMatchObject({
        code: "PRICE_NOT_CONFIGURED",
        message: "Payments for Agency (yearly) are not configured: set STRIPE_PRICE_AGENCY_YEARLY",
      });
      const moon = (await cards(token)).find((c) => c.id === "moon")!;
      expect(moon.checkout.yearly).toEqual({ available: true });
    } finally {
      process.env.STRIPE_PRICE_AGENCY_YEARLY = saved;
    }
  });
});
