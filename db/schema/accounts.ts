import { sql } from "drizzle-orm";
import { boolean, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { FREE_PLAN } from "@/lib/constants";
import { apps } from "./apps";
import { users } from "./users";

// The account of a signed-in user, created by POST /api/live_api/account/create.
// Builders have accountType 'builder'; end users of an app have 'other' and appId = that app.
export const accounts = pgTable("accounts", {
  accountId: uuid("account_id").primaryKey().defaultRandom(),
  userId: uuid("user_id")
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: "cascade" }),
  accountType: text("account_type", { enum: ["builder", "other"] }).notNull(),
  plan: text("plan").notNull().default(FREE_PLAN),
  subscriptionId: text("subscription_id"),
  planSubscriptionStatus: text("plan_subscription_status"),
  planSubscriptionCancelledAt: timestamp("plan_subscription_cancelled_at", { withTimezone: true }),
  /** Stripe customer of the builder (cus_...), reused by the next checkout. */
  stripeCustomerId: text("stripe_customer_id"),
  /** Paid invoices (in_...) of the subscription, and one-time payments (pi_...), oldest first. */
  subscriptionPaymentsIds: text("subscription_payments_ids").array().notNull().default(sql`'{}'::text[]`),
  appId: uuid("app_id").references(() => apps.id, { onDelete: "cascade" }),
  hasBusinessInfo: boolean("has_business_info").notNull().default(false),
  hasPaidAppPackage: boolean("has_paid_app_package").notNull().default(false),
  isAdmin: boolean("is_admin").notNull().default(false),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type Account = typeof accounts.$inferSelect;

// A Stripe Checkout Session (sale_id = its id, cs_...), recorded when POST /api/billing/checkout
// creates it. account/create answers 401 for its sale_id until the payment webhook marks it paid.
// expired: the buyer never paid (checkout.session.expired); failed: a delayed payment failed.
export const checkoutSales = pgTable("checkout_sales", {
  saleId: text("sale_id").primaryKey(),
  userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
  email: text("email"),
  plan: text("plan").notNull(),
  interval: text("interval", { enum: ["monthly", "yearly"] }),
  status: text("status", { enum: ["pending", "paid", "failed", "expired"] })
    .notNull()
    .default("pending"),
  paymentId: text("payment_id"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  paidAt: timestamp("paid_at", { withTimezone: true }),
});

export type CheckoutSale = typeof checkoutSales.$inferSelect;
