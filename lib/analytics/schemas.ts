import { z } from "zod";
import { isIsoDay } from "./range";

// Shapes of the analytics routes (GET /api/apps/{appId}/analytics and .../analytics/runs), shared
// by the routes, the analytics page and the tests. Client-safe: no server imports.

/** A UTC day, 'YYYY-MM-DD'. */
export const IsoDay = z.string().refine(isIsoDay, { message: "Expected a day written YYYY-MM-DD" });

/** The range of UTC days, both included; see lib/analytics/range.ts resolveRange for missing ends. */
export const AnalyticsQuery = z.object({ from: IsoDay.optional(), to: IsoDay.optional() });
export type AnalyticsQuery = z.infer<typeof AnalyticsQuery>;

/** The last run of the page before: its start to the microsecond (UTC), "_", its id. */
export const RunsCursor = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  );

export const AnalyticsRunsQuery = AnalyticsQuery.extend({ cursor: RunsCursor.optional() });
export type AnalyticsRunsQuery = z.infer<typeof AnalyticsRunsQuery>;

/** The statuses in the order the page lists them ('running': started, not finished yet). */
export const ANALYTICS_STATUSES = ["success", "error", "cancelled", "aborted", "running"] as const;
export type AnalyticsStatus = (typeof ANALYTICS_STATUSES)[number];

const count = z.number().int().min(0);
const usd = z.number().min(0);

export const AnalyticsDay = z.object({
  day: IsoDay,
  runs: count,
  demoRuns: count,
  /** Distinct users with a run that day (signed-in end users, visitors by hashed address). */
  users: count,
  /** End users of the app created that day. */
  signups: count,
  tokens: count,
  costUsd: usd,
});
export type AnalyticsDay = z.infer<typeof AnalyticsDay>;

export const AnalyticsTotals = z.object({
  runs: count,
  demoRuns: count,
  /** Distinct users over the whole range (not the sum of the days'). */
  users: count,
  signups: count,
  promptTokens: count,
  completionTokens: count,
  tokens: count,
  /** Cost of the runs whose model has a price. */
  costUsd: usd,
  /** Runs of models without a price: their cost is unknown, not counted. */
  unpricedRuns: count,
});
export type AnalyticsTotals = z.infer<typeof AnalyticsTotals>;

export const AnalyticsTool = z.object({
  /** Null: the runs of a single-tool app, or of a generated app's deleted tool. */
  toolId: z.uuid().nullable(),
  name: z.string(),
  runs: count,
  tokens: count,
  costUsd: usd,
});
export type AnalyticsTool = z.infer<typeof AnalyticsTool>;

/** A run in the list of recent runs: the row (db/queries/analytics.ts AppRunRow) with its tool's name. */
export const AnalyticsRun = z.object({
  id: z.uuid(),
  createdAt: z.iso.datetime(),
  toolName: z.string(),
  kind: z.enum(["end_user", "visitor"]),
  /** The signed-in end user's address; null for a visitor. */
  userEmail: z.string().nullable(),
  status: z.enum(ANALYTICS_STATUSES),
  inputs: z
    .record(z.string(), z.unknown())
    .describe("The run's inputs by field name, as the end user sent them (free-form JSON values)"),
  output: z.string(),
  error: z.string().nullable(),
  model: z.string(),
  promptTokens: count.nullable(),
  completionTokens: count.nullable(),
  costUsd: usd,
  costKnown: z.boolean(),
  durationMs: count.nullable(),
  isDemo: z.boolean(),
});
export type AnalyticsRun = z.infer<typeof AnalyticsRun>;

/** GET /api/apps/{appId}/analytics/runs: a page of runs, newest first; nextCursor is the next page's `cursor`. */
export const AnalyticsRunsAnswer = z.object({
  runs: z.array(AnalyticsRun),
  nextCursor: RunsCursor.nullable(),
});
export type AnalyticsRunsPage = z.infer<typeof AnalyticsRunsAnswer>;

/** GET /api/apps/{appId}/analytics */
export const AppAnalyticsAnswer = z.object({
  app: z.object({ id: z.uuid(), name: z.string(), type: z.enum(["tool", "generated", "space"]) }),
  range: z.object({ from: IsoDay, to: IsoDay, days: z.number().int().min(1) }),
  totals: AnalyticsTotals,
  days: z.array(AnalyticsDay),
  statuses: z.array(z.object({ status: z.enum(ANALYTICS_STATUSES), runs: count })),
  /** The most run tools first, at most ANALYTICS_TOP_TOOLS. */
  tools: z.array(AnalyticsTool),
  recentRuns: AnalyticsRunsAnswer,
});
export type AppAnalytics = z.infer<typeof AppAnalyticsAnswer>;
