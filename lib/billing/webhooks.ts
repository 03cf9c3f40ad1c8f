import "server-only";
import type Stripe from "stripe";
import { db, type Executor } from "@/db/client";
import { findCheckoutSale, insertAccountIfMissing } from "@/db/queries/accounts";
import {
  findAccountIdByCustomer,
  lockAccount,
  lockAccountOfUser,
  lockSubscription,
  recordStripeEvent,
  settleCheckoutSale,
  settlePlanChange,
  updateAccountBilling,
  updateSubscription,
} from "@/db/queries/billing";
import { findUserById } from "@/db/queries/users";
import type { Account, Subscription } from "@/db/schema";
import { STRIPE_WEBHOOK_TOLERANCE_S } from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { logInfo } from "@/lib/log";
import { isPaidPlan } from "@/lib/plans/capabilities";
import { isPlanId, type PlanId } from "@/lib/plans/catalogue";
import { planForStripePrice } from "@/lib/plans/stripe-prices";
import type { WebhookReceivedAnswer } from "./schemas";
import { constructWebhookEvent, webhookSecret } from "./stripe";
import {
  accountFieldsOf,
  appendIds,
  detailsAreNewer,
  grantsPlan,
  isTerminalStatus,
  speaksForAccount,
  statusIsNewer,
} from "./subscription-state";

// POST /api/webhooks/stripe. The signature over the raw body is the only authorization. Each
// event is applied once: its id is recorded in stripe_events in the same transaction as its
// effects, so a redelivery changes nothing and a failure leaves nothing half done (Stripe
// retries it). Events may come in any order; lib/billing/subscription-state.ts decides
// which one holds.

type Interval = "monthly" | "yearly";
type SubscriptionPatch = Parameters<typeof updateSubscription>[1];

/** Verifies and applies one delivery. Any verification failure is a 400 and changes nothing. */
export async function handleStripeWebhook(
  raw: Uint8Array,
  signature: string | null,
): Promise<WebhookReceivedAnswer> {
  if (!signature) throw new AppError("BAD_REQUEST", "webhookSignatureInvalid", "INVALID_SIGNATURE");
  webhookSecret(); // 503 naming the variables when payments are not configured
  let event: Stripe.Event;
  try {
    event = constructWebhookEvent(raw, signature, STRIPE_WEBHOOK_TOLERANCE_S);
  } catch {
    // A bad or stale signature, a wrong secret, a body changed in transit, or not JSON.
    throw new AppError("BAD_REQUEST", "webhookSignatureInvalid", "INVALID_SIGNATURE");
  }
  if (!isEventShape(event)) throw new AppError("BAD_REQUEST", "invalidInput", "INVALID_EVENT");

  const applied = await db().transaction(async (tx) => {
    const first = await recordStripeEvent(
      { eventId: event.id, type: event.type, createdAt: new Date(event.created * 1000) },
      tx,
    );
    if (first) await applyEvent(event, tx);
    return first;
  });
  return { received: true, duplicate: !applied };
}

function isEventShape(event: Stripe.Event): boolean {
  const e = event as Partial<Stripe.Event> | null;
  return (
    typeof e?.id === "string" &&
    typeof e.type === "string" &&
    typeof e.created === "number" &&
    typeof e.data?.object === "object" &&
    e.data.object !== null
  );
}

async function applyEvent(event: Stripe.Event, tx: Executor): Promise<void> {
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      return onCheckoutPaid(event, event.data.object, tx);
    case "checkout.session.async_payment_failed":
      return onCheckoutUnpaid(event.data.object, "failed", tx);
    case "checkout.session.expired":
      return onCheckoutUnpaid(event.data.object, "expired", tx);
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
    case "customer.subscription.paused":
    case "customer.subscription.resumed":
      return onSubscription(event, event.data.object, tx);
    case "invoice.paid":
      return onInvoice(event, event.data.object, "paid", tx);
    case "invoice.payment_failed":
      return onInvoice(event, event.data.object, "failed", tx);
    default:
      // Recorded, nothing to do: the endpoint may be subscribed to more than we read.
      return;
  }
}

// ---- checkout sessions ----

async function onCheckoutPaid(event: Stripe.Event, s: Stripe.Checkout.Session, tx: Executor) {
  // A delayed payment method (bank debit): checkout.session.async_payment_succeeded follows.
  if (s.payment_status === "unpaid") return;
  const eventAt = createdAt(event);
  const sale = await findCheckoutSale(s.id, tx);
  const meta = s.metadata ?? {};
  const userId =
    (await platformUserId(s.client_reference_id, tx)) ??
    (await platformUserId(sale?.userId, tx)) ??
    (await platformUserId(meta.userId, tx));
  const plan = paidPlan(sale?.plan) ?? paidPlan(meta.planId);
  const interval = sale?.interval ?? intervalOf(meta.interval);
  const customerId = idOf(s.customer);
  const subscriptionId = s.mode === "subscription" ? idOf(s.subscription) : null;
  // Locks are always taken subscription first, then account: concurrent events never deadlock.
  const held = subscriptionId ? await lockSubscription(subscriptionId, tx) : null;

  // The buyer may have paid before their account existed (sign-up with a plan): create it.
  let account: Account | undefined;
  if (userId) {
    await insertAccountIfMissing({ userId, accountType: "builder", appId: null }, tx);
    account = await lockAccountOfUser(userId, tx);
  }
  // The customer of the latest checkout is the one the next checkout reuses.
  if (account && customerId && account.stripeCustomerId !== customerId) {
    account = await updateAccountBilling(account.accountId, { stripeCustomerId: customerId }, tx);
  }

  let paymentId: string | null = null;
  if (subscriptionId && held) {
    paymentId = idOf(s.invoice);
    const patch: SubscriptionPatch = {
      userId: held.userId ?? userId,
      accountId: held.accountId ?? account?.accountId ?? null,
      customerId: held.customerId ?? customerId,
      // What was bought; a subscription object (newer by nature) may already have said more.
      plan: held.plan ?? plan,
      interval: held.interval ?? interval,
      paymentIds: appendIds(held.paymentIds, paymentId),
      lastEventId: event.id,
    };
    if (statusIsNewer(held, "active", eventAt))
      Object.assign(patch, { status: "active", statusEventAt: eventAt });
    const sub = await updateSubscription(subscriptionId, patch, tx);
    if (account) await followSubscription(account, sub, true, tx);
  } else if (s.mode === "payment") {
    // A one-time plan: no subscription to follow.
    paymentId = idOf(s.payment_intent);
    if (account && plan) {
      await updateAccountBilling(
        account.accountId,
        { plan, subscriptionPaymentsIds: appendIds(account.subscriptionPaymentsIds, paymentId) },
        tx,
      );
    }
  }

  const salePlan = sale?.plan ?? plan;
  if (salePlan) {
    await settleCheckoutSale(
      {
        saleId: s.id,
        userId,
        email: s.customer_details?.email ?? s.customer_email ?? sale?.email ?? null,
        plan: salePlan,
        interval,
        status: "paid",
        paymentId,
      },
      tx,
    );
  }
  if (!userId) logInfo("stripe checkout paid by no known builder", { sessionId: s.id, eventId: event.id });
}

async function onCheckoutUnpaid(s: Stripe.Checkout.Session, status: "failed" | "expired", tx: Executor) {
  const sale = await findCheckoutSale(s.id, tx);
  if (!sale) return; // not a checkout of ours
  await settleCheckoutSale(
    {
      saleId: s.id,
      userId: sale.userId,
      email: sale.email,
      plan: sale.plan,
      interval: sale.interval,
      status,
      paymentId: null,
    },
    tx,
  );
}

// ---- subscriptions ----

async function onSubscription(event: Stripe.Event, s: Stripe.Subscription, tx: Executor) {
  const eventAt = createdAt(event);
  const meta = s.metadata ?? {};
  const held = await lockSubscription(s.id, tx);
  const customerId = idOf(s.customer);
  const owner = await ownerOf(held, meta, customerId, tx);
  const status =
    event.type === "customer.subscription.deleted" && !isTerminalStatus(s.status) ? "canceled" : s.status;

  const patch: SubscriptionPatch = {
    ...owner,
    customerId: held.customerId ?? customerId,
    lastEventId: event.id,
  };
  if (statusIsNewer(held, status, eventAt)) Object.assign(patch, { status, statusEventAt: eventAt });
  if (detailsAreNewer(held, eventAt)) {
    const priced = priceOf(s);
    const endedAt = isTerminalStatus(status) ? seconds(s.ended_at) : null;
    Object.assign(patch, {
      plan: priced?.planId ?? paidPlan(meta.planId) ?? held.plan,
      interval: priced?.interval ?? intervalOf(meta.interval) ?? held.interval,
      cancelledAt: seconds(s.canceled_at) ?? endedAt,
      detailsEventAt: eventAt,
    });
  }
  const sub = await updateSubscription(s.id, patch, tx);
  await followFromSubscription(sub, tx);
  await settlePlanChangeOf(s, status, sub.userId, tx);
}

/**
 * A plan change of ours (lib/billing/plan-change.ts) names its record in the subscription's
 * metadata; the event showing the price it asked for, on a subscription that grants a plan,
 * is Stripe's confirmation. Later events carry the same metadata: settling is idempotent.
 */
async function settlePlanChangeOf(
  s: Stripe.Subscription,
  status: string,
  userId: string | null,
  tx: Executor,
) {
  const changeId = s.metadata?.planChangeId;
  const priced = priceOf(s);
  if (!changeId || !priced || !grantsPlan(status)) return;
  await settlePlanChange({ saleId: changeId, userId, plan: priced.planId, interval: priced.interval }, tx);
}

// ---- invoices ----

async function onInvoice(event: Stripe.Event, inv: Stripe.Invoice, outcome: "paid" | "failed", tx: Executor) {
  const details = inv.parent?.subscription_details;
  const subscriptionId = idOf(details?.subscription);
  if (!subscriptionId) return; // a one-off invoice, not a plan's
  const eventAt = createdAt(event);
  const meta = details?.metadata ?? {};
  const held = await lockSubscription(subscriptionId, tx);
  const customerId = idOf(inv.customer);
  const owner = await ownerOf(held, meta, customerId, tx);
  const patch: SubscriptionPatch = {
    ...owner,
    customerId: held.customerId ?? customerId,
    plan: held.plan ?? paidPlan(meta.planId),
    interval: held.interval ?? intervalOf(meta.interval),
    lastEventId: event.id,
  };
  if (outcome === "paid") {
    patch.paymentIds = appendIds(held.paymentIds, inv.id);
    // A paid invoice means the subscription is active, unless it is trialing or paused.
    const activates =
      held.status === null || ["active", "incomplete", "past_due", "unpaid"].includes(held.status);
    if (activates && statusIsNewer(held, "active", eventAt)) {
      Object.assign(patch, { status: "active", statusEventAt: eventAt });
    }
  } else {
    patch.failedPaymentId = inv.id;
    // The first invoice failing leaves the subscription incomplete; a renewal failing, past due.
    const firstInvoice =
      held.status === "incomplete" || (held.status === null && inv.billing_reason === "subscription_create");
    const status = firstInvoice ? "incomplete" : "past_due";
    if (statusIsNewer(held, status, eventAt)) Object.assign(patch, { status, statusEventAt: eventAt });
  }
  const sub = await updateSubscription(subscriptionId, patch, tx);
  await followFromSubscription(sub, tx);
}

// ---- the account ----

/** Copies a subscription's state to its account when the account follows (or takes up) it. */
async function followSubscription(account: Account, sub: Subscription, adopt: boolean, tx: Executor) {
  if (!speaksForAccount(account, sub, adopt)) return;
  await updateAccountBilling(
    account.accountId,
    {
      ...accountFieldsOf(sub),
      subscriptionPaymentsIds: appendIds(account.subscriptionPaymentsIds, ...sub.paymentIds),
      ...(sub.customerId && !account.stripeCustomerId ? { stripeCustomerId: sub.customerId } : {}),
    },
    tx,
  );
}

async function followFromSubscription(sub: Subscription, tx: Executor) {
  if (!sub.accountId) return; // its buyer is not known yet: the checkout completion links it
  const account = await lockAccount(sub.accountId, tx);
  if (account) await followSubscription(account, sub, false, tx);
}

/**
 * Who a subscription belongs to: what the row already knows, else the user our checkout put
 * in the subscription's metadata, else the account paying through that Stripe customer.
 */
async function ownerOf(
  held: Subscription,
  meta: Record<string, string>,
  customerId: string | null,
  tx: Executor,
): Promise<{ userId: string | null; accountId: string | null }> {
  const userId = held.userId ?? (await platformUserId(meta.userId, tx));
  if (held.accountId) return { userId, accountId: held.accountId };
  const byUser = userId ? (await lockAccountOfUser(userId, tx))?.accountId : undefined;
  const byCustomer = !byUser && customerId ? await findAccountIdByCustomer(customerId, tx) : undefined;
  return { userId, accountId: byUser ?? byCustomer ?? null };
}

// ---- small readers ----

/** The id if it names a builder of the platform (not an end user of an app). */
async function platformUserId(id: unknown, tx: Executor): Promise<string | null> {
  if (typeof id !== "string" || !isUuid(id)) return null;
  const user = await findUserById(id, tx);
  return user && user.tenantId === null ? user.id : null;
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (typeof value === "string") return value;
  return value?.id ?? null;
}

function paidPlan(value: unknown): PlanId | null {
  return typeof value === "string" && isPlanId(value) && isPaidPlan(value) ? value : null;
}

function intervalOf(value: unknown): Interval | null {
  return value === "monthly" || value === "yearly" ? value : null;
}

/** The plan of the subscription's price, when it is one of ours. */
function priceOf(s: Stripe.Subscription): { planId: PlanId; interval: Interval } | null {
  const priceId = s.items?.data?.[0]?.price?.id;
  return priceId ? planForStripePrice(priceId) : null;
}

function createdAt(event: Stripe.Event): Date {
  return new Date(event.created * 1000);
}

function seconds(value: number | null | undefined): Date | null {
  return typeof value === "number" ? new Date(value * 1000) : null;
}
