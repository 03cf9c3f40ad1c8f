import { bigint, date, pgTable, primaryKey, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

// A builder's connection to a document provider (Notion, Google Drive), made through OAuth in
// the Data Sources dialog. The tokens are stored encrypted (lib/integrations), never in clear.
export const INTEGRATION_PROVIDERS = ["notion", "google-drive"] as const;
export type IntegrationProvider = (typeof INTEGRATION_PROVIDERS)[number];

export const integrationConnections = pgTable(
  "integration_connections",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.accountId, { onDelete: "cascade" }),
    provider: text("provider", { enum: INTEGRATION_PROVIDERS }).notNull(),
    accessToken: text("access_token").notNull(),
    refreshToken: text("refresh_token"),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /** The workspace or Google account the builder connected, to show which one it is. */
    externalAccountName: text("external_account_name"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique("integration_connections_account_provider").on(t.accountId, t.provider)],
);

export type IntegrationConnection = typeof integrationConnections.$inferSelect;

// How much data an account's apps had ingested in a calendar month (UTC), against the plan's
// monthly processing limit ('Monthly data processing limit has been reached' past it).
export const contextUsage = pgTable(
  "context_usage",
  {
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.accountId, { onDelete: "cascade" }),
    /** The first day of the month. */
    month: date("month").notNull(),
    bytes: bigint("bytes", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.month] })],
);
