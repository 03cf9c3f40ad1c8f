import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import * as checkout from "@/app/api/billing/checkout/route";
import * as webhook from "@/app/api/webhooks/stripe/route";
import { db } from "@/db/client";
import { accounts, checkoutSales, stripeEvents, subscriptions } from "@/db/schema";
import { messages } from "@/lib/messages";
import { PLAN_CATALOGUE } from "@/lib/plans/catalogue";
import { createBuilder } from "../support/factories";
import { call } from "../support/http";
import {
  catalogueStripePrices,
  type StripeEvent,
  startStripeServer,
  stripeServerEnv,
} from "../support/stripe-server";

// Webhooks signed by the SDK's generateTestHeaderString, delivered by the Stripe double to the
// route in-process: verification, exactly-once application, and events in any order.
const { prices, env: priceEnv } = catalogueStripePrices(PLAN_CATALOGUE);
const stripe = await startStripeServer({ prices });
Object.assign(process.env, { ...stripeServerEnv(stripe), ...priceEnv });
stripe.setWebhookTarget((raw, headers) => post(raw, headers));

afterAll(() => stripe.close());

function post(raw: string, headers: Record<string, string>) {
  return call<{ received?: boolean; duplicate?: boolean }>(webhook.POST, {
    path: "/api/webhooks/stripe",
    rawBody: raw,
    headers,
  });
}

/** Delivers an event as Stripe would, answering our route's whole answer. */
function postSigned(event: StripeEvent) {
  const { raw, headers } = stripe.signedDelivery(event);
  return post(raw, headers);
}

const nowS = () => Math.floor(Date.now() / 1000);

/** A builder with a started (unpaid) checkout: its session id and the account. */
async function builderInCheckout(
  planId = "explorer",
  interval = "monthly",
  opts: { withAccount?: boolean } = {},
) {
  const builder = await createBuilder({ withAccount: opts.withAccount });
  const res = await call<{ url: string }>(checkout.POST, {
    path: "/api/billing/checkout",
    token: builder.token,
    body: { planId, interval },
  });
  expect(res.status).toBe(200);
  const saleId = new URL(res.json.url).pathname.split("/").pop()!;
  return { ...builder, saleId };
}

async function accountOfUser(userId: string) {
  const [row] = await db().select().from(accounts).where(eq(accounts.userId, userId));
  return row;
}

async function saleStatus(saleId: string) {
  const [row] = await db().select().from(checkoutSales).where(eq(checkoutSales.saleId, saleId));
  return row?.status;
}

async function eventCount(): Promise<number> {
  const r = await db().execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM stripe_events`);
  return Number(r.rows[0]?.n);
}

const byType = (events: StripeEvent[], type: string) => events.find((e) => e.type === type)!;

describe("POST /api/webhooks/stripe: verification", () => {
  async function pendingCompletion() {
    const b = await builderInCheckout();
    const events = await stripe.pay(b.saleId, { deliver: false });
    return { ...b, completed: byType(events, "checkout.session.completed") };
  }

  async function expectRefusedAndNothingChanged(
    b: { user: { id: string }; saleId: string },
    res: { status: number; json: unknown },
  ) {
    expect(res.status).toBe(400);
    expect((res.json as { error: unknown }).error).toEqual({
      code: "INVALID_SIGNATURE",
      message: messages.webhookSignatureInvalid,
    });
    expect(await saleStatus(b.saleId)).toBe("pending");
    expect((await accountOfUser(b.user.id))?.plan).toBe("lite");
  }

  it("applies a correctly signed event", async () => {
    const b = await pendingCompletion();
    const { raw, headers } = stripe.signedDelivery(b.completed);
    const res = await post(raw, headers);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ received: true, duplicate: false });
    expect(await saleStatus(b.saleId)).toBe("paid");
    expect((await accountOfUser(b.user.id))?.plan).toBe("explorer");
  });

  it("refuses a bad signature", async () => {
    const b = await pendingCompletion();
    const before = await eventCount();
    const { raw } = stripe.signedDelivery(b.completed);
    const forged = `t=${nowS()},v1=${"ab".repeat(32)}`;
    await expectRefusedAndNothingChanged(b, await post(raw, { "stripe-signature": forged }));
    expect(await eventCount()).toBe(before);
  });

  it("refuses a body re-serialised after signing (the signature covers the raw bytes)", async () => {
    const b = await pendingCompletion();
    const { raw, headers } = stripe.signedDelivery(b.completed);
    const reserialised = JSON.stringify(JSON.parse(raw));
    expect(reserialised).not.toBe(raw);
    await expectRefusedAndNothingChanged(b, await post(reserialised, headers));
  });

  it("refuses a changed body", async () => {
    const b = await pendingCompletion();
    const { raw, headers } = stripe.signedDelivery(b.completed);
    await expectRefusedAndNothingChanged(b, await post(raw.replace('"paid"', '"unpaid"'), headers));
  });

  it("refuses a signature older than the 300 s tolerance", async () => {
    const b = await pendingCompletion();
    const { raw, headers } = stripe.signedDelivery(b.completed, { timestamp: nowS() - 600 });
    await expectRefusedAndNothingChanged(b, await post(raw, headers));
  });

  it("refuses a signature made with another secret", async () => {
    const b = await pendingCompletion();
    const { raw, headers } = stripe.signedDelivery(b.completed, { secret: "whsec_someone_else" });
    await expectRefusedAndNothingChanged(b, await post(raw, headers));
  });

  it("refuses a request without a signature", async () => {
    const b = await pendingCompletion();
    const { raw } = stripe.signedDelivery(b.completed);
    await expectRefusedAndNothingChanged(b, await post(raw, { "content-type": "application/json" }));
  });
});

describe("POST /api/webhooks/stripe: each event once", () => {
  it("applies a redelivered event only once", async () => {
    const b = await builderInCheckout();
    const events = await stripe.pay(b.saleId);
    const subscriptionId = stripe.session(b.saleId)!.subscription as string;
    const renewal = await stripe.renewal(subscriptionId, "paid", { deliver: false });

    const first = await postSigned(renewal);
    const again = await postSigned(renewal);
    expect(first.json).toEqual({ received: true, duplicate: false });
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ received: true, duplicate: true });

    const firstInvoice = (byType(events, "invoice.paid").data.object as { id: string }).id;
    const renewalInvoice = (renewal.data.object as { id: string }).id;
    const account = await accountOfUser(b.user.id);
    expect(account?.subscriptionPaymentsIds).toEqual([firstInvoice, renewalInvoice]);
    const recorded = await db().select().from(stripeEvents).where(eq(stripeEvents.eventId, renewal.id));
    expect(recorded).toHaveLength(1);

    // The whole payment redelivered: nothing changes either.
    for (const e of events) expect((await stripe.deliver(e)) === 200).toBe(true);
    expect((await accountOfUser(b.user.id))?.subscriptionPaymentsIds).toEqual([firstInvoice, renewalInvoice]);
  });

  it("applies concurrent deliveries of one event once", async () => {
    const b = await builderInCheckout();
    const events = await stripe.pay(b.saleId, { deliver: false });
    // The payment's three events at once: they lock rows in one order, so none deadlocks.
    expect(await Promise.all(events.map((e) => stripe.deliver(e)))).toEqual([200, 200, 200]);
    const subscriptionId = stripe.session(b.saleId)!.subscription as string;
    const renewal = await stripe.renewal(subscriptionId, "paid", { deliver: false });
    const answers = await Promise.all([1, 2, 3, 4].map(() => stripe.deliver(renewal)));
    expect(answers).toEqual([200, 200, 200, 200]);
    const account = await accountOfUser(b.user.id);
    expect(
      account?.subscriptionPaymentsIds.filter((id) => id === (renewal.data.object as { id: string }).id),
    ).toHaveLength(1);
  });
});

describe("POST /api/webhooks/stripe: events in any order", () => {
  it("ends active on the plan bought when the payment's events arrive backwards", async () => {
    const b = await builderInCheckout("monetizer", "monthly");
    const events = await stripe.pay(b.saleId, { deliver: false });
    for (const e of [...events].reverse()) expect(await stripe.deliver(e)).toBe(200);
    const account = await accountOfUser(b.user.id);
    expect(account).toMatchObject({
      plan: "monetizer",
      subscriptionId: stripe.session(b.saleId)!.subscription,
      planSubscriptionStatus: "active",
    });
    expect(account?.subscriptionPaymentsIds).toEqual([
      (byType(events, "invoice.paid").data.object as { id: string }).id,
    ]);
    expect(await saleStatus(b.saleId)).toBe("paid");
  });

  it("keeps a plan change that arrived before the checkout completion", async () => {
    const b = await builderInCheckout("explorer", "monthly");
    const t = nowS();
    const events = await stripe.pay(b.saleId, { deliver: false, created: t });
    const subscriptionId = stripe.session(b.saleId)!.subscription as string;
    const upgrade = await stripe.updateSubscription(
      subscriptionId,
      { price: "price_moon_monthly" },
      {
        deliver: false,
        created: t + 10,
      },
    );
    expect(await stripe.deliver(upgrade)).toBe(200);
    for (const e of events) expect(await stripe.deliver(e)).toBe(200);
    const account = await accountOfUser(b.user.id);
    expect(account).toMatchObject({ plan: "moon", subscriptionId, planSubscriptionStatus: "active" });
    const [sub] = await db()
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.subscriptionId, subscriptionId));
    expect(sub).toMatchObject({ plan: "moon", interval: "monthly", status: "active" });
  });

  it("creates the account of a buyer who had none, whatever arrives first", async () => {
    const b = await builderInCheckout("explorer", "yearly", { withAccount: false });
    const events = await stripe.pay(b.saleId, { deliver: false });
    // The subscription and invoice come first: nobody to give the plan to yet.
    expect(await stripe.deliver(byType(events, "customer.subscription.created"))).toBe(200);
    expect(await stripe.deliver(byType(events, "invoice.paid"))).toBe(200);
    expect(await accountOfUser(b.user.id)).toBeUndefined();
    expect(await stripe.deliver(byType(events, "checkout.session.completed"))).toBe(200);
    expect(await accountOfUser(b.user.id)).toMatchObject({
      accountType: "builder",
      plan: "explorer",
      planSubscriptionStatus: "active",
      stripeCustomerId: stripe.session(b.saleId)!.customer,
    });
  });

  it("stays cancelled when an older update arrives after the deletion", async () => {
    const b = await builderInCheckout();
    const t = nowS();
    await stripe.pay(b.saleId, { created: t });
    const subscriptionId = stripe.session(b.saleId)!.subscription as string;
    const update = await stripe.updateSubscription(
      subscriptionId,
      { cancelAtPeriodEnd: true },
      {
        deliver: false,
        created: t + 10,
      },
    );
    const deleted = await stripe.cancelSubscription(subscriptionId, { deliver: false, created: t + 20 });
    expect(await stripe.deliver(deleted)).toBe(200);
    expect(await stripe.deliver(update)).toBe(200);
    const account = await accountOfUser(b.user.id);
    expect(account).toMatchObject({ plan: "lite", subscriptionId, planSubscriptionStatus: "canceled" });
    expect(account?.planSubscriptionCancelledAt).toEqual(new Date((t + 10) * 1000));
  });

  it("ignores an older paid invoice after a newer failed one, and recovers on a newer payment", async () => {
    const b = await builderInCheckout();
    const t = nowS();
    await stripe.pay(b.saleId, { created: t });
    const subscriptionId = stripe.session(b.saleId)!.subscription as string;
    const olderPaid = await stripe.renewal(subscriptionId, "paid", { deliver: false, created: t + 5 });
    const failed = await stripe.renewal(subscriptionId, "failed", { deliver: false, created: t + 10 });
    expect(await stripe.deliver(failed)).toBe(200);
    expect(await stripe.deliver(olderPaid)).toBe(200);
    let account = await accountOfUser(b.user.id);
    expect(account).toMatchObject({ plan: "explorer", planSubscriptionStatus: "past_due" });
    // The older invoice was paid all the same: its payment is kept.
    expect(account?.subscriptionPaymentsIds).toContain((olderPaid.data.object as { id: string }).id);
    const [sub] = await db()
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.subscriptionId, subscriptionId));
    expect(sub?.failedPaymentId).toBe((failed.data.object as { id: string }).id);

    await stripe.renewal(subscriptionId, "paid", { created: t + 20 });
    account = await accountOfUser(b.user.id);
    expect(account).toMatchObject({ plan: "explorer", planSubscriptionStatus: "active" });
  });

  it("keeps a cancellation request that arrives after a newer paid invoice", async () => {
    const b = await builderInCheckout();
    const t = nowS();
    await stripe.pay(b.saleId, { created: t });
    const subscriptionId = stripe.session(b.saleId)!.subscription as string;
    const cancelRequest = await stripe.updateSubscription(
      subscriptionId,
      { cancelAtPeriodEnd: true },
      {
        deliver: false,
        created: t + 10,
      },
    );
    await stripe.renewal(subscriptionId, "paid", { created: t + 15 });
    expect(await stripe.deliver(cancelRequest)).toBe(200);
    const account = await accountOfUser(b.user.id);
    expect(account).toMatchObject({ plan: "explorer", planSubscriptionStatus: "active" });
    expect(account?.planSubscriptionCancelledAt).toEqual(new Date((t + 10) * 1000));
  });
});

describe("POST /api/webhooks/stripe: lifecycle", () => {
  it("a deleted subscription puts the account back on lite", async () => {
    const b = await builderInCheckout("moon", "yearly");
    await stripe.pay(b.saleId);
    const subscriptionId = stripe.session(b.saleId)!.subscription as string;
    expect((await accountOfUser(b.user.id))?.plan).toBe("moon");
    await stripe.cancelSubscription(subscriptionId);
    const account = await accountOfUser(b.user.id);
    expect(account).toMatchObject({ plan: "lite", subscriptionId, planSubscriptionStatus: "canceled" });
    expect(account?.planSubscriptionCancelledAt).toBeInstanceOf(Date);
  });

  it("a cancellation at period end keeps the plan and records when it was asked", async () => {
    const b = await builderInCheckout();
    await stripe.pay(b.saleId);
    const subscriptionId = stripe.session(b.saleId)!.subscription as string;
    await stripe.updateSubscription(subscriptionId, { cancelAtPeriodEnd: true });
    let account = await accountOfUser(b.user.id);
    expect(account).toMatchObject({ plan: "explorer", planSubscriptionStatus: "active" });
    expect(account?.planSubscriptionCancelledAt).toBeInstanceOf(Date);
    // Changing their mind clears it.
    await stripe.updateSubscription(subscriptionId, { cancelAtPeriodEnd: false });
    account = await accountOfUser(b.user.id);
    expect(account?.planSubscriptionCancelledAt).toBeNull();
  });

  it("a failed renewal makes the subscription past due and keeps the plan during Stripe's retries", async () => {
    const b = await builderInCheckout("monetizer", "monthly");
    await stripe.pay(b.saleId);
    const subscriptionId = stripe.session(b.saleId)!.subscription as string;
    await stripe.renewal(subscriptionId, "failed");
    expect(await accountOfUser(b.user.id)).toMatchObject({
      plan: "monetizer",
      planSubscriptionStatus: "past_due",
    });
    await stripe.updateSubscription(subscriptionId, { status: "unpaid" });
    expect(await accountOfUser(b.user.id)).toMatchObject({ plan: "lite", planSubscriptionStatus: "unpaid" });
  });

  it("an old subscription ending does not touch the account that moved to a new one", async () => {
    // Two checkouts started before either was paid: two subscriptions (once one runs, choosing
    // another plan switches it instead, see billing-plan-change.test.ts).
    const b = await builderInCheckout("explorer", "monthly");
    const res = await call<{ url: string }>(checkout.POST, {
      path: "/api/billing/checkout",
      token: b.token,
      body: { planId: "moon", interval: "monthly" },
    });
    const secondSale = new URL(res.json.url).pathname.split("/").pop()!;
    await stripe.pay(b.saleId);
    const oldSubscription = stripe.session(b.saleId)!.subscription as string;
    await stripe.pay(secondSale);
    const newSubscription = stripe.session(secondSale)!.subscription as string;
    await stripe.cancelSubscription(oldSubscription);
    expect(await accountOfUser(b.user.id)).toMatchObject({
      plan: "moon",
      subscriptionId: newSubscription,
      planSubscriptionStatus: "active",
    });
  });

  it("a one-time plan paid in payment mode sets the plan and records the payment", async () => {
    const { user } = await createBuilder();
    const session = {
      id: `cs_test_onetime_${user.id.slice(0, 8)}`,
      object: "checkout.session",
      mode: "payment",
      status: "complete",
      payment_status: "paid",
      client_reference_id: user.id,
      customer: "cus_onetime",
      customer_details: { email: user.email },
      customer_email: user.email,
      metadata: { userId: user.id, planId: "agency", interval: "monthly" },
      payment_intent: "pi_onetime_1",
      subscription: null,
      invoice: null,
    };
    expect(await stripe.deliver(stripe.event("checkout.session.completed", session))).toBe(200);
    const account = await accountOfUser(user.id);
    expect(account).toMatchObject({
      plan: "agency",
      subscriptionPaymentsIds: ["pi_onetime_1"],
      stripeCustomerId: "cus_onetime",
    });
    expect(await saleStatus(session.id)).toBe("paid");
  });

  it("records events it does not act on, and events about unknown buyers, without changing anything", async () => {
    const before = await eventCount();
    const ignored = stripe.event("customer.created", { id: "cus_nobody", object: "customer" });
    const stranger = stripe.event("checkout.session.completed", {
      id: "cs_test_stranger",
      object: "checkout.session",
      mode: "subscription",
      payment_status: "paid",
      client_reference_id: "not-a-user",
      metadata: {},
      subscription: "sub_stranger",
      invoice: "in_stranger",
    });
    expect(await stripe.deliver(ignored)).toBe(200);
    expect(await stripe.deliver(stranger)).toBe(200);
    expect(await eventCount()).toBe(before + 2);
    expect(await saleStatus("cs_test_stranger")).toBeUndefined();
  });
});
