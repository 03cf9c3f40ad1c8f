import { pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { apps } from "./apps";
import { users } from "./users";

/**
 * A space app's deployed functions, one row per app and function name: the code that was
 * deployed (the text of `functions/<name>.ts|js` at deploy time) and its deploy state. The code
 * lives here, not on a server's disk, so any web instance can run any function.
 */
export const appFunctions = pgTable(
  "app_functions",
  {
    appId: uuid("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    /** The file's name under functions/ without its extension ("stripe-webhook"). */
    name: text("name").notNull(),
    /** "stripe-webhook.ts": the extension decides how the code is built. */
    fileName: text("file_name").notNull(),
    /** The code last deployed with success; null before the first success. */
    code: text("code"),
    /** SHA-256 of `code`, hex. */
    codeHash: text("code_hash"),
    state: text("state", { enum: ["pending", "deploying", "success", "error"] })
      .notNull()
      .default("pending"),
    /** Why the last deploy failed (state error), else null. */
    error: text("error"),
    deployedAt: timestamp("deployed_at", { withTimezone: true }),
    deployedBy: uuid("deployed_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.name] })],
);

export type AppFunction = typeof appFunctions.$inferSelect;
