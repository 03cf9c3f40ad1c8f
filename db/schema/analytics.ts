import {
  bigint,
  boolean,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import { apps } from "./apps";
import { RUN_KINDS, RUN_STATUSES } from "./runs";

// Analytics counters of tool_runs (lib/analytics), kept by triggers on tool_runs in the same
// transaction as every insert, update and delete of a run (migration 0014, hand-written part), so
// they are never stale and the analytics page reads a few hundred rows instead of every run: an
// app's month of a million runs is one index range of these tables, not a million rows to group.
// Days are UTC days. Nothing else writes them.

/** Runs, tokens and cost per app, UTC day, tool, kind, status and demo flag. */
export const analyticsRunDays = pgTable(
  "analytics_run_days",
  {
    appId: uuid("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    /** As tool_runs.tool_id: null for a single-tool app, or once the tool is deleted. */
    toolId: uuid("tool_id"),
    kind: text("kind", { enum: RUN_KINDS }).notNull(),
    status: text("status", { enum: RUN_STATUSES }).notNull(),
    isDemo: boolean("is_demo").notNull(),
    runs: integer("runs").notNull(),
    promptTokens: bigint("prompt_tokens", { mode: "number" }).notNull(),
    completionTokens: bigint("completion_tokens", { mode: "number" }).notNull(),
    costUsd: numeric("cost_usd", { precision: 18, scale: 6, mode: "number" }).notNull(),
    /** Runs of models without a price (their cost is unknown, not zero). */
    unpricedRuns: integer("unpriced_runs").notNull(),
  },
  (t) => [
    unique("analytics_run_days_key")
      .on(t.appId, t.day, t.toolId, t.kind, t.status, t.isDemo)
      .nullsNotDistinct(),
  ],
);

/**
 * Runs per app, UTC day and subject (tool_runs.subject: an end user, or a visitor's hashed
 * address; previews are left out), the subject stored as its 64-bit hash (hashtextextended):
 * what decides whether a run is the subject's first of the day.
 */
export const analyticsSubjectDays = pgTable(
  "analytics_subject_days",
  {
    appId: uuid("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    subjectHash: bigint("subject_hash", { mode: "bigint" }).notNull(),
    runs: integer("runs").notNull(),
  },
  (t) => [primaryKey({ name: "analytics_subject_days_pkey", columns: [t.appId, t.day, t.subjectHash] })],
);

/** Distinct subjects per app and UTC day (unique users of the day). */
export const analyticsDays = pgTable(
  "analytics_days",
  {
    appId: uuid("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    subjects: integer("subjects").notNull(),
  },
  (t) => [primaryKey({ name: "analytics_days_pkey", columns: [t.appId, t.day] })],
);

/**
 * Each subject's last UTC day with a run. The unique users of a range that reaches the app's
 * latest day (7, 30, 90 days up to today) are the subjects whose last day falls in it: one index
 * range, however many runs they made.
 */
export const analyticsSubjects = pgTable(
  "analytics_subjects",
  {
    appId: uuid("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    subjectHash: bigint("subject_hash", { mode: "bigint" }).notNull(),
    lastDay: date("last_day", { mode: "string" }).notNull(),
  },
  (t) => [
    primaryKey({ name: "analytics_subjects_pkey", columns: [t.appId, t.subjectHash] }),
    index("analytics_subjects_last_day_idx").on(t.appId, t.lastDay),
  ],
);
