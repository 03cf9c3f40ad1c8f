import { and, eq, inArray, sql } from "drizzle-orm";
import { db, type Executor } from "../client";
import {
  type Account,
  accounts,
  type CheckoutSale,
  checkoutSales,
  type Subscription,
  stripeEvents,
  subscriptions,
} from "../schema";

// Data access of payments: checkout sales, Stripe events and subscriptions. The webhook runs
// all of these inside one transaction per event.

export async function insertCheckoutSale(
  values: {
    saleId: string;
    userId: string;
    email: string;
    plan: string;
    interval: "monthly" | "yearly";
  },
  ex: Executor = db(),
): Promise<void> {
  await ex.insert(checkoutSales).values(values).onConflictDoNothing();
}

export async function findCheckoutSaleOfUser(
  saleId: string,
  userId: string,
  ex: Executor = db(),
): Promise<CheckoutSale | undefined> {
  const [row] = await ex
    .select()
    .from(checkoutSales)
    .where(and(eq(checkoutSales.saleId, saleId), eq(checkoutSales.userId, userId)));
  return row;
}

/**
 * Settles a sale from its checkout session. A sale we never recorded (a session made outside
 * our checkout route) is recorded here. A paid sale stays paid.
 */
export async function settleCheckoutSale(
  values: {
    saleId: string;
    userId: string | null;
    email: string | null;
    plan: string;
    interval: "monthly" | "yearly" | null;
    status: "paid" | "failed" | "expired";
    paymentId: string | null;
  },
  ex: Executor,
): Promise<void> {
  const paidAt = values.status === "paid" ? new Date() : null;
  await ex
    .insert(checkoutSales)
    .values({ ...values, paidAt })
    .onConflictDoUpdate({
      target: checkoutSales.saleId,
      set: {
        status: sql`CASE WHEN ${checkoutSales.status} = 'paid' THEN 'paid' ELSE excluded.status END`,
        paymentId: sql`coalesce(excluded.payment_id, ${checkoutSales.paymentId})`,
        paidAt: sql`coalesce(${checkoutSales.paidAt}, excluded.paid_at)`,
        userId: sql`coalesce(${checkoutSales.userId}, excluded.user_id)`,
      },
    });
}

/**
 * Marks a sale whose Stripe call failed; a sale Stripe's webhook already settled as paid stays
 * paid. Answers the status the sale ends with.
 */
export async function failCheckoutSale(
  saleId: string,
  ex: Executor = db(),
): Promise<CheckoutSale["status"] | undefined> {
  await ex
    .update(checkoutSales)
    .set({ status: "failed" })
    .where(and(eq(checkoutSales.saleId, saleId), eq(checkoutSales.status, "pending")));
  const [row] = await ex
    .select({ status: checkoutSales.status })
    .from(checkoutSales)
    .where(eq(checkoutSales.saleId, saleId));
  return row?.status;
}

/**
 * Settles the record of a plan change (chg_...) when Stripe's subscription event shows the plan
 * and interval it asked for. A change whose API answer was lost (marked failed) is settled too:
 * the webhook is what says it happened.
 */
export async function settlePlanChange(
  values: { saleId: string; userId: string | null; plan: string; interval: "monthly" | "yearly" },
  ex: Executor,
): Promise<void> {
  await ex
    .update(checkoutSales)
    .set({ status: "paid", paidAt: sql`coalesce(${checkoutSales.paidAt}, now())` })
    .where(
      and(
        eq(checkoutSales.saleId, values.saleId),
        eq(checkoutSales.plan, values.plan),
        eq(checkoutSales.interval, values.interval),
        inArray(checkoutSales.status, ["pending", "failed"]),
        values.userId ? eq(checkoutSales.userId, values.userId) : undefined,
      ),
    );
}

/** Records an event id; false when it was already recorded (a redelivery: apply nothing). */
export async function recordStripeEvent(
  values: { eventId: string; type: string; createdAt: Date },
  ex: Executor,
): Promise<boolean> {
  const rows = await ex
    .insert(stripeEvents)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: stripeEvents.eventId });
  return rows.length > 0;
}

export async function hasStripeEvent(eventId: string, ex: Executor = db()): Promise<boolean> {
  const [row] = await ex
    .select({ id: stripeEvents.eventId })
    .from(stripeEvents)
    .where(eq(stripeEvents.eventId, eventId));
  return Boolean(row);
}

/**
 * The subscription row, created empty when missing, locked until the transaction ends: events
 * about one subscription are applied one after the other, whatever order they arrive in.
 */
export async function lockSubscription(subscriptionId: string, ex: Executor): Promise<Subscription> {
  await ex.insert(subscriptions).values({ subscriptionId }).onConflictDoNothing();
  const [row] = await ex
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.subscriptionId, subscriptionId))
    .for("update");
  return row!;
}

export async function updateSubscription(
  subscriptionId: string,
  values: Partial<Omit<Subscription, "subscriptionId" | "createdAt" | "updatedAt">>,
  ex: Executor,
): Promise<Subscription> {
  const [row] = await ex
    .update(subscriptions)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(subscriptions.subscriptionId, subscriptionId))
    .returning();
  return row!;
}

export async function findSubscription(subscriptionId: string, ex: Executor = db()) {
  const [row] = await ex.select().from(subscriptions).where(eq(subscriptions.subscriptionId, subscriptionId));
  return row;
}

/** The account of a user, locked until the transaction ends. */
export async function lockAccountOfUser(userId: string, ex: Executor): Promise<Account | undefined> {
  const [row] = await ex.select().from(accounts).where(eq(accounts.userId, userId)).for("update");
  return row;
}

export async function lockAccount(accountId: string, ex: Executor): Promise<Account | undefined> {
  const [row] = await ex.select().from(accounts).where(eq(accounts.accountId, accountId)).for("update");
  return row;
}

/** The account paying through a Stripe customer (cus_...), if we know it. */
export async function findAccountIdByCustomer(customerId: string, ex: Executor): Promise<string | undefined> {
  const [row] = await ex
    .select({ accountId: accounts.accountId })
    .from(accounts)
    .where(eq(accounts.stripeCustomerId, customerId));
  return row?.accountId;
}

export async function updateAccountBilling(
  accountId: string,
  values: Partial<
    Pick<
      Account,
      | "plan"
      | "subscriptionId"
      | "planSubscriptionStatus"
      | "planSubscriptionCancelledAt"
      | "stripeCustomerId"
      | "subscriptionPaymentsIds"
    >
  >,
  ex: Executor,
): Promise<Account> {
  const [row] = await ex
    .update(accounts)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(accounts.accountId, accountId))
    .returning();
  return row!;
}

export async function findStripeCustomerId(accountId: string, ex: Executor = db()): Promise<string | null> {
  const [row] = await ex
    .select({ customerId: accounts.stripeCustomerId })
    .from(accounts)
    .where(eq(accounts.accountId, accountId));
  return row?.customerId ?? null;
}
