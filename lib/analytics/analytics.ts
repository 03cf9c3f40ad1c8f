import "server-only";
import {
  type AppRunRow,
  analyticsDaySeries,
  analyticsGroups,
  countRangeSubjects,
  listAppRuns,
} from "@/db/queries/analytics";
import { listTools } from "@/db/queries/apps";
import type { App } from "@/db/schema";
import { ANALYTICS_MAX_DAYS, ANALYTICS_RUNS_PAGE, ANALYTICS_TOP_TOOLS } from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { messages } from "@/lib/messages";
import { rangeDays, resolveRange } from "./range";
import {
  ANALYTICS_STATUSES,
  type AnalyticsQuery,
  type AnalyticsRun,
  type AnalyticsRunsPage,
  type AnalyticsRunsQuery,
  type AnalyticsTool,
  type AppAnalytics,
} from "./schemas";

// The analytics of an app for its builder (/analytics/app/{appId}, reachable only
// once the app is published). The caller has already checked that the session may edit the app.
// Every figure leaves out previews: they are the builder's own runs, not their users'.

/** Analytics exist for published apps only: 'Publish your app to access analytics'. */
export function assertPublished(app: Pick<App, "status">): void {
  if (app.status !== "active")
    throw new AppError("BAD_REQUEST", "analyticsNotPublished", "APP_NOT_PUBLISHED");
}

/** The range asked for, checked: a start on or before the end, at most ANALYTICS_MAX_DAYS days. */
export function checkedRange(query: AnalyticsQuery, now: Date = new Date()) {
  const { from, to } = resolveRange(query, now);
  const days = rangeDays(from, to);
  if (days < 1 || days > ANALYTICS_MAX_DAYS) {
    throw new AppError(
      "BAD_REQUEST",
      { key: "analyticsRangeInvalid", vars: { n: ANALYTICS_MAX_DAYS } },
      "INVALID_RANGE",
    );
  }
  return { from, to, days };
}

const appName = (app: Pick<App, "header">) => app.header.trim() || messages.untitledApp;

/**
 * Names runs' tools: a generated app's by its tools (title, else path); a single-tool app is its
 * own tool (runs carry no tool id); a generated app's run without one lost its tool.
 */
async function toolNamer(app: App): Promise<(toolId: string | null, title?: string | null) => string> {
  const titles = new Map<string, string>();
  if (app.type === "generated") {
    for (const t of await listTools(app.id)) titles.set(t.id, t.title.trim() || t.path);
  }
  return (toolId, title) => {
    if (toolId === null) return app.type === "generated" ? messages.analyticsDeletedTool : appName(app);
    return titles.get(toolId) ?? (title?.trim() || messages.analyticsDeletedTool);
  };
}

/** GET /api/apps/{appId}/analytics: figures of the range, and the first page of its runs. */
export async function getAppAnalytics(
  app: App,
  query: AnalyticsQuery,
  now = new Date(),
): Promise<AppAnalytics> {
  assertPublished(app);
  const range = checkedRange(query, now);
  // Independent reads: run side by side on the pool.
  const [days, groups, users, runs, nameOf] = await Promise.all([
    analyticsDaySeries(app.id, range.from, range.to),
    analyticsGroups(app.id, range.from, range.to),
    countRangeSubjects(app.id, range.from, range.to),
    listAppRuns(app.id, range.from, range.to, null, ANALYTICS_RUNS_PAGE + 1),
    toolNamer(app),
  ]);

  const total = groups.find((g) => g.by === "total");
  const byStatus = new Map(groups.filter((g) => g.by === "status").map((g) => [g.status, g.runs]));
  const tools: AnalyticsTool[] = groups
    .filter((g) => g.by === "tool" && g.runs > 0)
    .map((g) => ({
      toolId: g.toolId,
      name: nameOf(g.toolId),
      runs: g.runs,
      tokens: g.promptTokens + g.completionTokens,
      costUsd: g.costUsd,
    }))
    .sort((a, b) => b.runs - a.runs || a.name.localeCompare(b.name))
    .slice(0, ANALYTICS_TOP_TOOLS);

  return {
    app: { id: app.id, name: appName(app), type: app.type },
    range,
    totals: {
      runs: total?.runs ?? 0,
      demoRuns: total?.demoRuns ?? 0,
      users,
      signups: days.reduce((sum, d) => sum + d.signups, 0),
      promptTokens: total?.promptTokens ?? 0,
      completionTokens: total?.completionTokens ?? 0,
      tokens: (total?.promptTokens ?? 0) + (total?.completionTokens ?? 0),
      costUsd: total?.costUsd ?? 0,
      unpricedRuns: total?.unpricedRuns ?? 0,
    },
    days,
    // The four end states always (a zero says something); 'running' only while there are some.
    statuses: ANALYTICS_STATUSES.map((status) => ({ status, runs: byStatus.get(status) ?? 0 })).filter(
      (s) => s.status !== "running" || s.runs > 0,
    ),
    tools,
    recentRuns: runsPage(runs, nameOf),
  };
}

/** GET /api/apps/{appId}/analytics/runs: the next page of the range's runs, newest first. */
export async function listRecentRuns(
  app: App,
  query: AnalyticsRunsQuery,
  now = new Date(),
): Promise<AnalyticsRunsPage> {
  assertPublished(app);
  const range = checkedRange(query, now);
  const before = query.cursor ? parseCursor(query.cursor) : null;
  const [rows, nameOf] = await Promise.all([
    listAppRuns(app.id, range.from, range.to, before, ANALYTICS_RUNS_PAGE + 1),
    toolNamer(app),
  ]);
  return runsPage(rows, nameOf);
}

function parseCursor(cursor: string) {
  const at = cursor.indexOf("_");
  return { at: cursor.slice(0, at), id: cursor.slice(at + 1) };
}

/** One more row than the page was asked for says whether another page follows. */
function runsPage(rows: AppRunRow[], nameOf: (toolId: string | null, title?: string | null) => string) {
  const page = rows.slice(0, ANALYTICS_RUNS_PAGE);
  const last = page.at(-1);
  return {
    runs: page.map(
      (r): AnalyticsRun => ({
        id: r.id,
        createdAt: r.createdAt,
        toolName: nameOf(r.toolId, r.toolTitle),
        kind: r.kind,
        userEmail: r.userEmail,
        status: r.status,
        inputs: r.inputs,
        output: r.output,
        error: r.error,
        model: r.model,
        promptTokens: r.promptTokens,
        completionTokens: r.completionTokens,
        costUsd: r.costUsd,
        costKnown: r.costKnown,
        durationMs: r.durationMs,
        isDemo: r.isDemo,
      }),
    ),
    nextCursor: rows.length > ANALYTICS_RUNS_PAGE && last ? `${last.cursorAt}_${last.id}` : null,
  };
}
