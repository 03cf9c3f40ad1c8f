import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { users } from "./users";

// One row per Stripe subscription, kept from its webhooks. The account's plan fields are
// derived from the row its subscriptionId points at. Stripe delivers events in no particular
// order, so the row remembers the `created` time of the newest event whose state it holds
// and an older event does not overwrite it. Two clocks, because invoice events speak of the
// status only: a late subscription.updated must still bring its cancellation and plan.
//
// user_id and account_id may be null for a while: an event about a subscription can arrive
// before checkout.session.completed names its buyer; the row waits for it.
export const subscriptions = pgTable(
  "subscriptions",
  {
    subscriptionId: text("subscription_id").primaryKey(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    accountId: uuid("account_id").references(() => accounts.accountId, { onDelete: "cascade" }),
    customerId: text("customer_id"),
    /** Plan id of the catalogue; null until an event says which. */
    plan: text("plan"),
    interval: text("interval", { enum: ["monthly", "yearly"] }),
    /** Stripe's status: incomplete, active, trialing, past_due, unpaid, paused, canceled, incomplete_expired. */
    status: text("status"),
    /** When the builder asked to cancel (Stripe's canceled_at), also for a cancel at period end. */
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /** Paid invoices (in_...), oldest first. */
    paymentIds: text("payment_ids").array().notNull().default(sql`'{}'::text[]`),
    /** The invoice whose payment failed last (invoice.payment_failed). */
    failedPaymentId: text("failed_payment_id"),
    /** `created` of the newest event whose status is held (subscription, checkout and invoice events). */
    statusEventAt: timestamp("status_event_at", { withTimezone: true }),
    /** `created` of the newest subscription object whose plan, interval and cancellation are held. */
    detailsEventAt: timestamp("details_event_at", { withTimezone: true }),
    /** The last event that changed the row, for support. */
    lastEventId: text("last_event_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("subscriptions_account_idx").on(t.accountId), index("subscriptions_user_idx").on(t.userId)],
);

export type Subscription = typeof subscriptions.$inferSelect;

// Every Stripe event applied, by id: Stripe delivers at least once, and a redelivery must
// change nothing. Inserted in the same transaction as the event's effects.
export const stripeEvents = pgTable("stripe_events", {
  eventId: text("event_id").primaryKey(),
  type: text("type").notNull(),
  /** The event's own `created` time at Stripe. */
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});
