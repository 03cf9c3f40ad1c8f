import { and, eq, inArray, sql } from "drizzle-orm";
import { db, type Executor } from "../client";
import { type RunKind, type RunStatus, toolRuns, users } from "../schema";

// The analytics of one app (lib/analytics) over a range of UTC days, `from` and `to` included
// ('YYYY-MM-DD'). Figures come from the counters the tool_runs triggers keep (db/schema/analytics.ts),
// a few hundred rows per app and range however many runs; only the page of recent runs reads
// tool_runs, through its (app_id, created_at) index. Previews (the builder's own runs) are left out.

/** The first instant of a UTC day, and the first instant after the last day of a range. */
const dayStart = (day: string) => sql`(${day}::date)::timestamp AT TIME ZONE 'UTC'`;
const dayEnd = (day: string) => sql`(${day}::date + 1)::timestamp AT TIME ZONE 'UTC'`;

export type AnalyticsDayRow = {
  day: string;
  runs: number;
  demoRuns: number;
  users: number;
  signups: number;
  tokens: number;
  costUsd: number;
};

/** One row per day of the range, days without anything included (zeros). */
export async function analyticsDaySeries(
  appId: string,
  from: string,
  to: string,
  ex: Executor = db(),
): Promise<AnalyticsDayRow[]> {
  const res = await ex.execute<AnalyticsDayRow>(sql`
    SELECT to_char(g.day, 'YYYY-MM-DD') AS "day",
      coalesce(r.runs, 0)::int AS "runs",
      coalesce(r.demo_runs, 0)::int AS "demoRuns",
      coalesce(a.subjects, 0)::int AS "users",
      coalesce(s.signups, 0)::int AS "signups",
      coalesce(r.tokens, 0)::float8 AS "tokens",
      coalesce(r.cost_usd, 0)::float8 AS "costUsd"
    FROM generate_series(${from}::date, ${to}::date, interval '1 day') AS g(day)
    LEFT JOIN (
      SELECT day, sum(runs) AS runs, sum(runs) FILTER (WHERE is_demo) AS demo_runs,
        sum(prompt_tokens + completion_tokens) AS tokens, sum(cost_usd) AS cost_usd
      FROM analytics_run_days
      WHERE app_id = ${appId} AND day BETWEEN ${from}::date AND ${to}::date AND kind <> 'preview'
      GROUP BY day
    ) r ON r.day = g.day::date
    LEFT JOIN analytics_days a ON a.app_id = ${appId} AND a.day = g.day::date
    LEFT JOIN (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS signups
      FROM users
      WHERE tenant_id = ${appId} AND created_at >= ${dayStart(from)} AND created_at < ${dayEnd(to)}
      GROUP BY 1
    ) s ON s.day = g.day::date
    ORDER BY g.day`);
  return res.rows;
}

export type AnalyticsGroupRow = {
  /** Which grouping: the tool, the status, or the whole range. */
  by: "tool" | "status" | "total";
  toolId: string | null;
  status: RunStatus | null;
  runs: number;
  demoRuns: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  unpricedRuns: number;
};

/** The range's totals, and the same per tool and per status, in one pass over the counters. */
export async function analyticsGroups(
  appId: string,
  from: string,
  to: string,
  ex: Executor = db(),
): Promise<AnalyticsGroupRow[]> {
  const res = await ex.execute<AnalyticsGroupRow>(sql`
    SELECT CASE WHEN grouping(tool_id) = 0 THEN 'tool' WHEN grouping(status) = 0 THEN 'status' ELSE 'total' END AS "by",
      tool_id AS "toolId", status,
      coalesce(sum(runs), 0)::int AS "runs",
      coalesce(sum(runs) FILTER (WHERE is_demo), 0)::int AS "demoRuns",
      coalesce(sum(prompt_tokens), 0)::float8 AS "promptTokens",
      coalesce(sum(completion_tokens), 0)::float8 AS "completionTokens",
      coalesce(sum(cost_usd), 0)::float8 AS "costUsd",
      coalesce(sum(unpriced_runs), 0)::int AS "unpricedRuns"
    FROM analytics_run_days
    WHERE app_id = ${appId} AND day BETWEEN ${from}::date AND ${to}::date AND kind <> 'preview'
    GROUP BY GROUPING SETS ((tool_id), (status), ())`);
  return res.rows;
}

/**
 * Distinct subjects (signed-in end users, visitors by hashed address) with a run in the range.
 * A range that reaches the app's latest day with a run (every "last N days" range) counts the
 * subjects whose last day falls in it: one index range of analytics_subjects. An older range has
 * to gather its days' subjects (analytics_subject_days): exact, and slower on a busy app.
 */
export async function countRangeSubjects(
  appId: string,
  from: string,
  to: string,
  ex: Executor = db(),
): Promise<number> {
  const res = await ex.execute<{ n: number }>(sql`
    SELECT CASE
      WHEN ${to}::date >= coalesce((SELECT max(last_day) FROM analytics_subjects WHERE app_id = ${appId}), ${to}::date)
      THEN (SELECT count(*) FROM analytics_subjects WHERE app_id = ${appId} AND last_day >= ${from}::date)
      ELSE (SELECT count(*) FROM (
        SELECT subject_hash FROM analytics_subject_days
        WHERE app_id = ${appId} AND day BETWEEN ${from}::date AND ${to}::date AND runs > 0
        GROUP BY subject_hash) x)
    END::int AS n`);
  return res.rows[0]?.n ?? 0;
}

export type AppRunRow = {
  id: string;
  /** created_at to the microsecond, UTC: the page cursor (a JS Date would round it to the millisecond). */
  cursorAt: string;
  createdAt: string;
  toolId: string | null;
  toolTitle: string | null;
  kind: Exclude<RunKind, "preview">;
  userEmail: string | null;
  status: RunStatus;
  inputs: Record<string, unknown>;
  output: string;
  error: string | null;
  model: string;
  promptTokens: number | null;
  completionTokens: number | null;
  costUsd: number;
  costKnown: boolean;
  durationMs: number | null;
  isDemo: boolean;
};

/**
 * The range's runs, newest first, `limit` of them after the cursor (the last row of the page
 * before: its created_at to the microsecond and id). A backward walk of (app_id, created_at).
 */
export async function listAppRuns(
  appId: string,
  from: string,
  to: string,
  before: { at: string; id: string } | null,
  limit: number,
  ex: Executor = db(),
): Promise<AppRunRow[]> {
  const after = before
    ? sql`AND r.created_at <= ${before.at}::timestamptz AND (r.created_at, r.id) < (${before.at}::timestamptz, ${before.id}::uuid)`
    : sql``;
  const res = await ex.execute<AppRunRow>(sql`
    SELECT r.id,
      to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "cursorAt",
      to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
      r.tool_id AS "toolId", t.title AS "toolTitle", r.kind, u.email AS "userEmail", r.status,
      r.inputs, r.output, r.error, r.model,
      r.prompt_tokens AS "promptTokens", r.completion_tokens AS "completionTokens",
      r.cost_usd::float8 AS "costUsd", r.cost_known AS "costKnown", r.duration_ms AS "durationMs",
      r.is_demo AS "isDemo"
    FROM tool_runs r
    LEFT JOIN tools t ON t.id = r.tool_id
    LEFT JOIN users u ON u.id = r.user_id AND r.kind = 'end_user'
    WHERE r.app_id = ${appId} AND r.created_at >= ${dayStart(from)} AND r.created_at < ${dayEnd(to)}
      AND r.kind <> 'preview' ${after}
    ORDER BY r.created_at DESC, r.id DESC
    LIMIT ${limit}`);
  return res.rows;
}

// ---- demo data (npm run db:seed) ----

/**
 * The demo end users of an app, created (or moved) to the given sign-up times: the seed's users
 * sign up over the last weeks whenever it runs. Answers their ids, in the order given.
 */
export async function upsertDemoEndUsers(
  tenantId: string,
  people: { email: string; name: string; createdAt: Date }[],
  ex: Executor = db(),
): Promise<string[]> {
  const ids: string[] = [];
  for (const p of people) {
    const [row] = await ex
      .insert(users)
      .values({
        tenantId,
        email: p.email,
        name: p.name,
        emailVerifiedAt: p.createdAt,
        createdAt: p.createdAt,
      })
      .onConflictDoUpdate({
        target: [users.tenantId, users.email],
        set: { createdAt: p.createdAt, emailVerifiedAt: p.createdAt, name: p.name },
      })
      .returning({ id: users.id });
    ids.push(row!.id);
  }
  return ids;
}

/** Replaces the demo runs (is_demo) of the apps with these, in one transaction. */
export async function replaceDemoRuns(appIds: string[], runs: NewDemoRun[]): Promise<void> {
  await db().transaction(async (tx) => {
    await tx.delete(toolRuns).where(and(inArray(toolRuns.appId, appIds), eq(toolRuns.isDemo, true)));
    if (runs.length) await tx.insert(toolRuns).values(runs.map((r) => ({ ...r, isDemo: true })));
  });
}

export type NewDemoRun = Omit<typeof toolRuns.$inferInsert, "id" | "isDemo">;
