import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { apps, tools } from "./apps";
import { users } from "./users";

// Every run of a tool (lib/runs): who ran it, what was asked and answered, what it cost. The
// per-user limits sum `credits` over a window (tool_runs_limit_idx); analytics read it by app and
// day (tool_runs_app_created_idx). A run is inserted as 'running' when its slot is reserved and
// finished in place.

export const RUN_STATUSES = ["running", "success", "error", "cancelled", "aborted"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** preview: the app's builder (or an admin); end_user: a user of the app's tenant; visitor: anybody else. */
export const RUN_KINDS = ["end_user", "visitor", "preview"] as const;
export type RunKind = (typeof RUN_KINDS)[number];

/**
 * What a run's model was grounded in, as it was sent (lib/runs/grounding.ts): the excerpts of the
 * app's data sources with their score (default query method), or the CSV rows the fields' filter
 * conditions selected (smart items filtering); "none" when the inputs held no words to search
 * with. Only the builder and admins read it (lib/runs/run-context.ts); scores only admins.
 */
export type RunContext =
  | {
      kind: "chunks";
      excerpts: { itemId: string; itemName: string; position: number; text: string; score: number }[];
    }
  | { kind: "rows"; rows: { itemId: string; position: number; data: Record<string, string> }[] }
  | { kind: "none" };

export const toolRuns = pgTable(
  "tool_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    appId: uuid("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    /** The tool of a generated app; null for a single-tool app (the app is its tool). */
    toolId: uuid("tool_id").references(() => tools.id, { onDelete: "set null" }),
    kind: text("kind", { enum: RUN_KINDS }).notNull(),
    /** The end user, or the builder of a preview; kept as null when the user is deleted. */
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    /** Whose limits the run counts in: user:{id}, visitor:{hash of the address}, preview:{id}. */
    subject: text("subject").notNull(),
    inputs: jsonb("inputs").$type<Record<string, unknown>>().notNull(),
    output: text("output").notNull().default(""),
    model: text("model").notNull(),
    promptTokens: integer("prompt_tokens"),
    completionTokens: integer("completion_tokens"),
    costUsd: numeric("cost_usd", { precision: 12, scale: 6, mode: "number" }).notNull().default(0),
    /** False when the model has no price in lib/ai/prices.ts: its cost is unknown, not free. */
    costKnown: boolean("cost_known").notNull().default(false),
    /** Credits charged (creditsPerRun); 0 once given back (a run that produced nothing). */
    credits: integer("credits").notNull().default(0),
    status: text("status", { enum: RUN_STATUSES }).notNull().default("running"),
    /** What went wrong, for the builder. */
    error: text("error"),
    durationMs: integer("duration_ms"),
    /** Seeded demo runs (npm run db:seed), so analytics can tell them apart. */
    isDemo: boolean("is_demo").notNull().default(false),
    /** What the model was grounded in; null when the run ended before its data was read (or predates it). */
    context: jsonb("context").$type<RunContext>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    index("tool_runs_limit_idx").on(t.appId, t.subject, t.createdAt).where(sql`${t.credits} > 0`),
    index("tool_runs_app_created_idx").on(t.appId, t.createdAt),
    index("tool_runs_tool_idx").on(t.toolId),
    index("tool_runs_running_idx").on(t.createdAt).where(sql`${t.status} = 'running'`),
  ],
);

export type ToolRun = typeof toolRuns.$inferSelect;

// What an end user answered to the memorize fields of an app, prefilled on their next run.
export const userMemories = pgTable(
  "user_memories",
  {
    appId: uuid("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    fieldName: text("field_name").notNull(),
    value: jsonb("value").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "user_memories_pkey", columns: [t.appId, t.userId, t.fieldName] }),
    index("user_memories_user_idx").on(t.userId),
  ],
);
