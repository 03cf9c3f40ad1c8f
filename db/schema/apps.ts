import { type AnyPgColumn, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

// A minimal app: later issues add content, settings, styles and tools.
export const apps = pgTable(
  "apps",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerAccountId: uuid("owner_account_id")
      .notNull()
      .references((): AnyPgColumn => accounts.accountId, { onDelete: "cascade" }),
    type: text("type", { enum: ["tool", "generated", "space"] })
      .notNull()
      .default("tool"),
    status: text("status", { enum: ["active", "draft"] })
      .notNull()
      .default("draft"),
    header: text("header").notNull().default(""),
    content: jsonb("content").notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("apps_owner_idx").on(t.ownerAccountId)],
);

export type App = typeof apps.$inferSelect;
