import { index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

// Fixed-window counters: one row per key (e.g. "login:ip:1.2.3.4") and window.
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  count: integer("count").notNull().default(0),
});

// Mail that was not sent over SMTP lands here and is shown at /dev/outbox outside production.
export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("email_outbox_to_idx").on(t.to, t.createdAt)],
);
