import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import * as checkout from "@/app/api/billing/checkout/route";
import * as current from "@/app/api/live_api/account/current/route";
import * as webhook from "@/app/api/webhooks/stripe/route";
import { db } from "@/db/client";
import { accounts, checkoutSales, subscriptions } from "@/db/schema";
import { messages } from "@/lib/messages";
import { PLAN_CATALOGUE } from "@/lib/plans/catalogue";
import { fillTemplate } from "@/lib/text";
import { createBuilder } from "../support/factories";
import { call } from "../support/http";
import { catalogueStripePrices, startStripeServer, stripeServerEnv } from "../support/stripe-server";

// A builder already paying who picks another plan: the one subscription gets the new price
// (prorated), through the real `stripe` SDK against the local Stripe double, which delivers the
// signed customer.subscription.updated to our webhook route; only that event changes the plan.
const APP_URL = "https://builder.example.test";
const { prices, env: priceEnv } = catalogueStripePrices(PLAN_CATALOGUE);
const stripe = await startStripeServer({ prices });
Object.assign(process.env, { APP_URL, ...stripeServerEnv(stripe), ...priceEnv });
stripe.setWebhookTarget((raw, headers) =>
  call(webhook.POST, { path: "/api/webhooks/stripe", rawBody: raw, headers }),
);

afterAll(() => stripe.close());

type Answer = {
  kind?: string;
  url?: string;
  title?: string;
  message?: string;
  confirmLabel?: string;
  saleId?: string;
  plan?: string;
  interval?: string;
  error?: { code: string; message: string };
};

function choose(token: string, planId: string, interval: string, confirmChange?: boolean) {
  return call<Answer>(checkout.POST, {
    path: "/api/billing/checkout",
    token,
    body: { planId, interval, ...(confirmChange === undefined ? {} : { confirmChange }) },
  });
}

/** A builder who bought a plan through Checkout and paid: their one subscription is live. */
async function subscriber(planId = "explorer", interval = "monthly") {
  const builder = await createBuilder();
  const res = await choose(builder.token, planId, interval);
  expect(res.json.kind).toBe("checkout");
  const paid = await fetch(res.json.url!, { redirect: "manual" });
  expect(paid.status).toBe(303);
  const saleId = new URL(res.json.url!).pathname.split("/").pop()!;
  const session = stripe.session(saleId)!;
  return {
    ...builder,
    subscriptionId: session.subscription as string,
    customer: session.customer as string,
  };
}

async function accountOf(token: string) {
  const res = await call<{
    plan: string;
    subscriptionId: string | null;
    planSubscriptionStatus: string | null;
  }>(current.GET, { method: "GET", path: "/api/live_api/account/current", token });
  return res.json;
}

const subscriptionsOf = (customer: string) => stripe.subscriptions().filter((s) => s.customer === customer);
const checkoutSessionsCreated = () =>
  stripe.requests.filter((r) => r.method === "POST" && r.path === "/v1/checkout/sessions").length;
const updatesOf = (subscriptionId: string) =>
  stripe.requests.filter((r) => r.method === "POST" && r.path === `/v1/subscriptions/${subscriptionId}`);
const priceOf = (sub: Record<string, unknown> | undefined) =>
  ((sub?.items as { data: { price: { id: string } }[] } | undefined)?.data ?? []).map(
    (item) => item.price.id,
  );

async function saleRow(saleId: string) {
  const [row] = await db().select().from(checkoutSales).where(eq(checkoutSales.saleId, saleId));
  return row;
}

describe("switching plans while a subscription runs", () => {
  it("asks first: the answer is the prorated change to confirm, and nothing changes yet", async () => {
    const b = await subscriber("explorer", "monthly");
    const sessionsBefore = checkoutSessionsCreated();
    const res = await choose(b.token, "moon", "monthly");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      kind: "confirmChange",
      title: "Switch to Moon?",
      message: fillTemplate(messages.planChangeUpgradeProrated, { from: "Explorer", plan: "Moon" }),
      confirmLabel: "Switch to Moon",
    });
    expect(res.json.message).toContain("prorated");
    expect(checkoutSessionsCreated()).toBe(sessionsBefore);
    expect(updatesOf(b.subscriptionId)).toEqual([]);
    expect((await accountOf(b.token)).plan).toBe("explorer");
  });

  it("explorer → moon updates the one subscription, and the webhook applies the new plan", async () => {
    const b = await subscriber("explorer", "monthly");
    const itemId = (stripe.subscription(b.subscriptionId)!.items as { data: { id: string }[] }).data[0]!.id;
    const sessionsBefore = checkoutSessionsCreated();
    const deliveriesBefore = stripe.deliveries.length;

    const res = await choose(b.token, "moon", "monthly", true);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ kind: "planChange", plan: "moon", interval: "monthly" });
    const saleId = res.json.saleId!;
    expect(saleId).toMatch(/^chg_/);

    // No Checkout, no second subscription: the one subscription's item has the new price.
    expect(checkoutSessionsCreated()).toBe(sessionsBefore);
    expect(subscriptionsOf(b.customer)).toHaveLength(1);
    const [update] = updatesOf(b.subscriptionId);
    expect(update!.body).toMatchObject({
      items: [{ id: itemId, price: "price_moon_monthly" }],
      proration_behavior: "create_prorations",
      payment_behavior: "error_if_incomplete",
      metadata: { planId: "moon", interval: "monthly", planChangeId: saleId },
    });
    expect(update!.idempotencyKey).toBe(saleId);
    expect(priceOf(stripe.subscription(b.subscriptionId))).toEqual(["price_moon_monthly"]);

    // Stripe's signed customer.subscription.updated reached the webhook and was applied.
    const delivered = stripe.deliveries.slice(deliveriesBefore);
    expect(delivered).toEqual([
      expect.objectContaining({ type: "customer.subscription.updated", status: 200 }),
    ]);
    expect(await accountOf(b.token)).toMatchObject({
      plan: "moon",
      subscriptionId: b.subscriptionId,
      planSubscriptionStatus: "active",
    });
    const [row] = await db()
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.subscriptionId, b.subscriptionId));
    expect(row).toMatchObject({ plan: "moon", interval: "monthly", status: "active" });

    // The client polls the change like a sale: the webhook settled it.
    const sale = await call(checkout.GET, {
      method: "GET",
      path: `/api/billing/checkout?sale_id=${saleId}`,
      token: b.token,
    });
    expect(sale.json).toEqual({ saleId, status: "paid", plan: "moon" });
    // The subscription keeps who bought it: Stripe merged the metadata.
    expect(stripe.subscription(b.subscriptionId)!.metadata).toMatchObject({
      userId: b.user.id,
      planId: "moon",
    });
  });

  it("a downgrade is confirmed as a credit, then switches the same subscription", async () => {
    const b = await subscriber("moon", "yearly");
    const ask = await choose(b.token, "explorer", "yearly");
    expect(ask.json.message).toBe(
      fillTemplate(messages.planChangeDowngradeProrated, { from: "Moon", plan: "Explorer" }),
    );
    const res = await choose(b.token, "explorer", "yearly", true);
    expect(res.json.kind).toBe("planChange");
    expect(subscriptionsOf(b.customer)).toHaveLength(1);
    expect(await accountOf(b.token)).toMatchObject({ plan: "explorer", subscriptionId: b.subscriptionId });
  });

  it("a new billing period is said to be charged today, and its invoice is recorded", async () => {
    const b = await subscriber("explorer", "monthly");
    const ask = await choose(b.token, "moon", "yearly");
    expect(ask.json.message).toBe(
      fillTemplate(messages.planChangeNewPeriod, {
        from: "Explorer",
        fromInterval: "monthly",
        plan: "Moon",
        interval: "yearly",
      }),
    );
    const deliveriesBefore = stripe.deliveries.length;
    const res = await choose(b.token, "moon", "yearly", true);
    expect(res.json).toMatchObject({ kind: "planChange", plan: "moon", interval: "yearly" });
    expect(stripe.deliveries.slice(deliveriesBefore).map((d) => [d.type, d.status])).toEqual([
      ["customer.subscription.updated", 200],
      ["invoice.paid", 200],
    ]);
    const [account] = await db().select().from(accounts).where(eq(accounts.userId, b.user.id));
    expect(account).toMatchObject({
      plan: "moon",
      subscriptionId: b.subscriptionId,
      planSubscriptionStatus: "active",
    });
    expect(account!.subscriptionPaymentsIds).toHaveLength(2);
    expect(subscriptionsOf(b.customer)).toHaveLength(1);
  });

  it("a declined payment for a new billing period changes nothing and says so", async () => {
    const b = await subscriber("explorer", "monthly");
    stripe.declinePayments(true);
    try {
      const res = await choose(b.token, "moon", "yearly", true);
      expect(res.status).toBe(400);
      expect(res.json.error).toEqual({ code: "PAYMENT_DECLINED", message: messages.planChangeDeclined });
    } finally {
      stripe.declinePayments(false);
    }
    expect(priceOf(stripe.subscription(b.subscriptionId))).toEqual(["price_explorer_monthly"]);
    expect(await accountOf(b.token)).toMatchObject({ plan: "explorer", planSubscriptionStatus: "active" });
    const [change] = await db()
      .select()
      .from(checkoutSales)
      .where(eq(checkoutSales.userId, b.user.id))
      .then((rows) => rows.filter((r) => r.saleId.startsWith("chg_")));
    expect(change).toMatchObject({ plan: "moon", status: "failed" });
  });

  it("a past-due subscription is switched too, not doubled", async () => {
    const b = await subscriber("explorer", "monthly");
    await stripe.renewal(b.subscriptionId, "failed");
    expect((await accountOf(b.token)).planSubscriptionStatus).toBe("past_due");
    const ask = await choose(b.token, "monetizer", "monthly");
    expect(ask.json.kind).toBe("confirmChange");
    const res = await choose(b.token, "monetizer", "monthly", true);
    expect(res.json.kind).toBe("planChange");
    expect(subscriptionsOf(b.customer)).toHaveLength(1);
    expect((await accountOf(b.token)).plan).toBe("monetizer");
  });

  it("the plan already running is refused, not sold again", async () => {
    const b = await subscriber("explorer", "monthly");
    const res = await choose(b.token, "explorer", "monthly", true);
    expect(res.status).toBe(409);
    expect(res.json.error).toEqual({ code: "ALREADY_ON_PLAN", message: messages.planChangeAlreadyCurrent });
    expect(updatesOf(b.subscriptionId)).toEqual([]);
  });

  it("switching to lite is not a checkout: the free plan is refused without calling Stripe", async () => {
    const b = await subscriber("explorer", "monthly");
    const requestsBefore = stripe.requests.length;
    const res = await choose(b.token, "lite", "monthly", true);
    expect(res.status).toBe(400);
    expect(res.json.error).toEqual({ code: "FREE_PLAN", message: messages.checkoutFreePlan });
    expect(stripe.requests.length).toBe(requestsBefore);
    expect((await accountOf(b.token)).plan).toBe("explorer");
  });

  it("a subscription that has ended is not switched: the next plan is a new checkout", async () => {
    const b = await subscriber("explorer", "monthly");
    await stripe.cancelSubscription(b.subscriptionId);
    const res = await choose(b.token, "moon", "monthly");
    expect(res.json.kind).toBe("checkout");
    expect(updatesOf(b.subscriptionId)).toEqual([]);
  });

  it("a subscription Stripe does not know (deleted, or from test mode) leads to a checkout", async () => {
    const b = await createBuilder();
    await db()
      .update(accounts)
      .set({ plan: "explorer", subscriptionId: "sub_from_test_mode", planSubscriptionStatus: "active" })
      .where(eq(accounts.accountId, b.account.accountId));
    const res = await choose(b.token, "moon", "monthly");
    expect(res.status).toBe(200);
    expect(res.json.kind).toBe("checkout");
  });

  it("a change confirmed but never delivered stays pending: the plan is not changed without the webhook", async () => {
    const b = await subscriber("explorer", "monthly");
    stripe.setWebhookTarget(async () => ({ status: 500 }));
    try {
      const res = await choose(b.token, "moon", "monthly", true);
      expect(res.json.kind).toBe("planChange");
      expect(priceOf(stripe.subscription(b.subscriptionId))).toEqual(["price_moon_monthly"]);
      expect((await accountOf(b.token)).plan).toBe("explorer");
      expect((await saleRow(res.json.saleId!))?.status).toBe("pending");
    } finally {
      stripe.setWebhookTarget((raw, headers) =>
        call(webhook.POST, { path: "/api/webhooks/stripe", rawBody: raw, headers }),
      );
    }
  });
});
