import { index, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { apps } from "./apps";
import { users } from "./users";

// Paid memberships of an app: the builder connects a Gumroad product, and end users
// who bought it get in. See lib/payments.

export const PAYMENT_PROVIDERS = ["gumroad"] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

// The app's connection to its payment provider. The builder's access token is stored sealed
// (AES-256-GCM, lib/integrations/token-crypto.ts) and never leaves the server; the product is
// the one end users must have bought. A row with a product is "setup completed".
export const appPaymentConnections = pgTable("app_payment_connections", {
  appId: uuid("app_id")
    .primaryKey()
    .references(() => apps.id, { onDelete: "cascade" }),
  provider: text("provider", { enum: PAYMENT_PROVIDERS }).notNull().default("gumroad"),
  accessToken: text("access_token").notNull(),
  productId: text("product_id").notNull(),
  productName: text("product_name").notNull(),
  /** The product's page on Gumroad, where end users buy it. */
  productUrl: text("product_url"),
  connectedAt: timestamp("connected_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type AppPaymentConnection = typeof appPaymentConnections.$inferSelect;

// An end user's membership of an app: a purchase of the app's product found on Gumroad with the
// end user's address. Checked again with Gumroad after `recheck_at` (a cancelled subscription or
// a refund ends it); a membership of another product than the app's current one does not count.
export const appMemberships = pgTable(
  "app_memberships",
  {
    appId: uuid("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: PAYMENT_PROVIDERS }).notNull().default("gumroad"),
    productId: text("product_id").notNull(),
    status: text("status", { enum: ["active", "ended"] }).notNull(),
    /** Gumroad's sale (purchase) id and, for a membership product, its subscription id. */
    saleId: text("sale_id"),
    subscriptionId: text("subscription_id"),
    /** The last time Gumroad confirmed the purchase. */
    verifiedAt: timestamp("verified_at", { withTimezone: true }).notNull(),
    recheckAt: timestamp("recheck_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.userId] }), index("app_memberships_user_idx").on(t.userId)],
);

export type AppMembership = typeof appMemberships.$inferSelect;
