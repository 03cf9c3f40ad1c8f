import { z } from "zod";
import type { AppRunRow } from "@/db/queries/analytics";
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

export type AnalyticsDay = {
  day: string;
  runs: number;
  demoRuns: number;
  /** Distinct users with a run that day (signed-in end users, visitors by hashed address). */
  users: number;
  /** End users of the app created that day. */
  signups: number;
  tokens: number;
  costUsd: number;
};

export type AnalyticsTotals = {
  runs: number;
  demoRuns: number;
  /** Distinct users over the whole range (not the sum of the days'). */
  users: number;
  signups: number;
  promptTokens: number;
  completionTokens: number;
  tokens: number;
  /** Cost of the runs whose model has a price. */
  costUsd: number;
  /** Runs of models without a price: their cost is unknown, not counted. */
  unpricedRuns: number;
};

export type AnalyticsTool = {
  toolId: string | null;
  name: string;
  runs: number;
  tokens: number;
  costUsd: number;
};

/** A run in the list of recent runs: the row (db/queries/analytics.ts) with its tool's name. */
export type AnalyticsRun = Omit<AppRunRow, "cursorAt" | "toolId" | "toolTitle" | "kind" | "status"> & {
  toolName: string;
  kind: "end_user" | "visitor";
  /** The signed-in end user's address; null for a visitor. */
  userEmail: string | null;
  status: AnalyticsStatus;
};

export type AnalyticsRunsPage = { runs: AnalyticsRun[]; nextCursor: string | null };

/** GET /api/apps/{appId}/analytics */
export type AppAnalytics = {
  app: { id: string; name: string; type: "tool" | "generated" | "space" };
  range: { from: string; to: string; days: number };
  totals: AnalyticsTotals;
  days: AnalyticsDay[];
  statuses: { status: AnalyticsStatus; runs: number }[];
  /** The most run tools first, at most ANALYTICS_TOP_TOOLS. */
  tools: AnalyticsTool[];
  recentRuns: AnalyticsRunsPage;
};
