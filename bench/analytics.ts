import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import { db, pool } from "@/db/client";
import { insertAccountIfMissing } from "@/db/queries/accounts";
import { insertApp } from "@/db/queries/apps";
import { insertUser } from "@/db/queries/users";
import type { App } from "@/db/schema";
import { getAppAnalytics } from "@/lib/analytics/analytics";
import { addDays, lastDays, todayUtc } from "@/lib/analytics/range";
import { withScratchDb } from "./scratch-db";
import { median, percentile } from "./stats";

// The analytics benchmark, figures only, never pass/fail, each against baselines
// measured in this run:
//  1. the analytics of an app with 1,000,000 runs over the last 90 days (one run in 20 a preview),
//     20,000 end users and 50,000 visitors' addresses, beside another app of 200,000 runs: the
//     service the page and GET /api/apps/{appId}/analytics call (lib/analytics getAppAnalytics:
//     totals, days, unique users, statuses, tools, the first page of runs), p50 and p95 for the
//     last 30 and the last 90 days (goal: p95 ≤ 100 ms), and for 30 days that end a month ago
//     (unique users then gathered from the days, not from each user's last day). Baselines: the
//     same figures computed from tool_runs alone (what the page would cost without the counters
//     the triggers keep), and the cheapest read of the range's runs, a count(*) through the
//     (app_id, created_at) index;
//  2. what the counters cost a run: a run's two writes (the INSERT of its slot, the UPDATE of its
//     end, as lib/runs makes them) with the triggers, as a ratio to the same writes without them.
// Run by bench/run.ts as a child process on its database (DATABASE_URL), or alone:
//   node --conditions=react-server --import tsx bench/analytics.ts
// which starts the embedded PostgreSQL in .data/bench-postgres with a fresh database.
// BENCH_RUNS (default 1000000), BENCH_ANALYTICS_CALLS (default 60), BENCH_WRITES (default 1000).

const RUNS = Number(process.env.BENCH_RUNS ?? 1_000_000);
const CALLS = Number(process.env.BENCH_ANALYTICS_CALLS ?? 60);
const WRITES = Number(process.env.BENCH_WRITES ?? 1000);
const USERS = 20_000;
const VISITORS = 50_000;
const TOOLS = 5;
const OTHER_RUNS = 200_000;
const BATCH = 100_000;
const P95_GOAL_MS = 100;
const DB_NAME = "bench_analytics";

const log = (line = "") => console.log(line);
const ms = (x: number) => `${x.toFixed(1)} ms`;
const sec = (x: number) => `${(x / 1000).toFixed(1)} s`;

async function newApp(label: string): Promise<App> {
  const user = (await insertUser({
    tenantId: null,
    email: `bench-${crypto.randomUUID().slice(0, 8)}@example.com`,
    emailVerifiedAt: new Date(),
  }))!;
  const account = await insertAccountIfMissing({ userId: user.id, accountType: "builder", appId: null });
  return insertApp({ ownerAccountId: account.accountId, header: label, type: "generated", status: "active" });
}

/**
 * Runs [from, to) of the app, spread evenly over the last `days` days, made by SQL (setseed: the
 * same runs every time). End users and visitors are skewed (a few come back often), as are tools.
 */
function insertRunsSql(appId: string, from: number, to: number, total: number, days: number) {
  return `INSERT INTO tool_runs (app_id, tool_id, kind, user_id, subject, inputs, output, model, prompt_tokens,
      completion_tokens, cost_usd, cost_known, credits, status, duration_ms, created_at, finished_at)
    SELECT '${appId}', t.ids[1 + floor(${TOOLS} * r.t ^ 1.5)::int], k.kind,
      CASE WHEN k.kind = 'end_user' THEN u.ids[1 + floor(${USERS} * r.u ^ 2)::int] END,
      CASE k.kind WHEN 'end_user' THEN 'user:' || u.ids[1 + floor(${USERS} * r.u ^ 2)::int]
                  WHEN 'visitor' THEN 'visitor:' || md5(floor(${VISITORS} * r.u ^ 2)::text)
                  ELSE 'preview:bench' END,
      jsonb_build_object('input', 'question ' || g), 'answer ' || g, 'gpt-4o-mini',
      CASE WHEN r.s < 0.95 THEN 150 + g % 700 END, CASE WHEN r.s < 0.95 THEN 40 + g % 500 END,
      CASE WHEN r.s < 0.95 THEN ((150 + g % 700) * 0.15 + (40 + g % 500) * 0.6) / 1e6 ELSE 0 END, true, 1,
      CASE WHEN r.s < 0.90 THEN 'success' WHEN r.s < 0.95 THEN 'cancelled' WHEN r.s < 0.98 THEN 'error' ELSE 'aborted' END,
      1000 + g % 8000, c.at, c.at
    FROM (SELECT array_agg(id ORDER BY position) AS ids FROM tools WHERE app_id = '${appId}') t
    CROSS JOIN (SELECT array_agg(id ORDER BY email) AS ids FROM users WHERE tenant_id = '${appId}') u
    CROSS JOIN generate_series(${from}, ${to - 1}) g
    -- g in every lateral: evaluated row by row (random() once per run, not once per statement).
    CROSS JOIN LATERAL (SELECT random() + 0 * g AS t, random() AS u, random() AS s, random() AS k) r
    CROSS JOIN LATERAL (SELECT CASE WHEN r.k < 0.65 AND u.ids IS NOT NULL THEN 'end_user'
      WHEN r.k < 0.95 THEN 'visitor' ELSE 'preview' END AS kind) k
    CROSS JOIN LATERAL (SELECT now() - (g::float8 / ${total}) * interval '${days} days' AS at) c`;
}

async function fill(app: App, other: App) {
  const started = performance.now();
  await db().execute(sql`SELECT setseed(0.42)`);
  for (const a of [app, other]) {
    await db().execute(
      sql.raw(`INSERT INTO tools (app_id, title, path, status, position)
        SELECT '${a.id}', 'Tool ' || i, 'tool-${a.id.slice(0, 8)}-' || i, 'active', i FROM generate_series(0, ${TOOLS - 1}) i`),
    );
  }
  // End users who signed up over the last 100 days.
  await db().execute(
    sql.raw(`INSERT INTO users (tenant_id, email, email_verified_at, created_at)
      SELECT '${app.id}', 'user' || i || '@example.com', now(), now() - random() * interval '100 days'
      FROM generate_series(1, ${USERS}) i`),
  );
  // Batches: the statement trigger aggregates each batch's rows at once.
  const client = await pool().connect();
  try {
    await client.query("SELECT setseed(0.42)");
    for (let from = 0; from < RUNS; from += BATCH) {
      await client.query(insertRunsSql(app.id, from, Math.min(RUNS, from + BATCH), RUNS, 90));
    }
    for (let from = 0; from < OTHER_RUNS; from += BATCH) {
      await client.query(insertRunsSql(other.id, from, Math.min(OTHER_RUNS, from + BATCH), OTHER_RUNS, 90));
    }
    const filled = performance.now();
    await client.query(
      "VACUUM ANALYZE tool_runs, users, analytics_run_days, analytics_subject_days, analytics_days, analytics_subjects",
    );
    const { rows } = await client.query<{
      runs: string;
      subject_days: string;
      subjects: string;
      size: string;
    }>(
      `SELECT (SELECT count(*) FROM tool_runs WHERE app_id = $1) AS runs,
        (SELECT count(*) FROM analytics_subject_days WHERE app_id = $1) AS subject_days,
        (SELECT count(*) FROM analytics_subjects WHERE app_id = $1) AS subjects,
        pg_size_pretty(pg_total_relation_size('analytics_run_days') + pg_total_relation_size('analytics_subject_days')
          + pg_total_relation_size('analytics_days') + pg_total_relation_size('analytics_subjects')) AS size`,
      [app.id],
    );
    const r = rows[0]!;
    log(
      `${Number(r.runs).toLocaleString("en")} runs (+${OTHER_RUNS.toLocaleString("en")} of another app) written in ` +
        `${sec(filled - started)} with the counters, VACUUM ANALYZE ${sec(performance.now() - filled)}; ` +
        `counters: ${Number(r.subject_days).toLocaleString("en")} user-days, ${Number(r.subjects).toLocaleString("en")} users, ${r.size}`,
    );
  } finally {
    client.release();
  }
}

/** The figures of getAppAnalytics straight from tool_runs, the way it would be without counters. */
async function fromRunsAlone(appId: string, from: string, to: string) {
  const start = sql`(${from}::date)::timestamp AT TIME ZONE 'UTC'`;
  const end = sql`(${to}::date + 1)::timestamp AT TIME ZONE 'UTC'`;
  const range = sql`app_id = ${appId} AND created_at >= ${start} AND created_at < ${end} AND kind <> 'preview'`;
  await Promise.all([
    db().execute(sql`
      SELECT g.day, coalesce(r.runs, 0), coalesce(r.users, 0), coalesce(r.tokens, 0), coalesce(r.cost, 0)
      FROM generate_series(${from}::date, ${to}::date, interval '1 day') g(day)
      LEFT JOIN (SELECT date_trunc('day', created_at AT TIME ZONE 'UTC') AS day, count(*) AS runs,
          count(DISTINCT subject) AS users, sum(coalesce(prompt_tokens, 0) + coalesce(completion_tokens, 0)) AS tokens,
          sum(cost_usd) AS cost
        FROM tool_runs WHERE ${range} GROUP BY 1) r ON r.day = g.day`),
    db().execute(
      sql`SELECT tool_id, status, count(*) FROM tool_runs WHERE ${range} GROUP BY GROUPING SETS ((tool_id), (status))`,
    ),
    db().execute(sql`SELECT count(DISTINCT subject) FROM tool_runs WHERE ${range}`),
  ]);
}

async function countAlone(appId: string, from: string, to: string) {
  await db().execute(sql`
    SELECT count(*) FROM tool_runs WHERE app_id = ${appId}
      AND created_at >= (${from}::date)::timestamp AT TIME ZONE 'UTC'
      AND created_at < (${to}::date + 1)::timestamp AT TIME ZONE 'UTC'`);
}

async function time(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

async function readBench(app: App) {
  const ranges = [
    { label: "last 30 days", ...lastDays(30) },
    { label: "last 90 days", ...lastDays(90) },
    { label: "30 days to a month ago", from: addDays(todayUtc(), -59), to: addDays(todayUtc(), -30) },
  ];
  // Warm-up: the pool's connections, the plans, the pages in memory.
  for (const r of ranges) for (let i = 0; i < 3; i++) await getAppAnalytics(app, r);
  const { totals } = await getAppAnalytics(app, ranges[1]!);
  log(
    `last 90 days: ${totals.runs.toLocaleString("en")} runs, ${totals.users.toLocaleString("en")} unique users, ` +
      `${totals.signups.toLocaleString("en")} sign-ups, ${totals.tokens.toLocaleString("en")} tokens`,
  );
  log("");
  log(
    `${"range".padEnd(24)}${"p50".padStart(10)}${"p95".padStart(10)}${"runs alone p50".padStart(16)}` +
      `${"÷".padStart(8)}${"count(*) p50".padStart(14)}${"÷".padStart(8)}`,
  );
  const results: { label: string; p95: number; preset: boolean }[] = [];
  for (const [i, r] of ranges.entries()) {
    const service = await time(i < 2 ? CALLS : Math.ceil(CALLS / 3), () => getAppAnalytics(app, r));
    const alone = await time(5, () => fromRunsAlone(app.id, r.from, r.to));
    const count = await time(10, () => countAlone(app.id, r.from, r.to));
    const p50 = median(service);
    log(
      `${r.label.padEnd(24)}${ms(p50).padStart(10)}${ms(percentile(service, 95)).padStart(10)}` +
        `${ms(median(alone)).padStart(16)}${`${(p50 / median(alone)).toFixed(2)}×`.padStart(8)}` +
        `${ms(median(count)).padStart(14)}${`${(p50 / median(count)).toFixed(2)}×`.padStart(8)}`,
    );
    results.push({ label: r.label, p95: percentile(service, 95), preset: i < 2 });
  }
  log("");
  for (const r of results.filter((x) => x.preset)) {
    log(
      r.p95 <= P95_GOAL_MS
        ? `${r.label}: p95 ${ms(r.p95)}, meets the goal (≤ ${P95_GOAL_MS} ms)`
        : `${r.label}: p95 ${ms(r.p95)}, ABOVE the goal (≤ ${P95_GOAL_MS} ms): look at db/queries/analytics.ts`,
    );
  }
}

/** A run's two writes as lib/runs makes them, one statement each, on their own connection. */
async function writeRuns(appId: string, n: number): Promise<number> {
  const client = await pool().connect();
  try {
    const started = performance.now();
    for (let i = 0; i < n; i++) {
      const id = crypto.randomUUID();
      await client.query(
        `INSERT INTO tool_runs (id, app_id, kind, subject, inputs, model, credits, status)
         VALUES ($1, $2, 'visitor', $3, '{"input":"hi"}', 'gpt-4o-mini', 1, 'running')`,
        [id, appId, `visitor:${i % 500}`],
      );
      await client.query(
        `UPDATE tool_runs SET status = 'success', output = 'hello', prompt_tokens = 12, completion_tokens = 30,
           cost_usd = 0.00002, cost_known = true, duration_ms = 900, finished_at = now()
         WHERE id = $1 AND status = 'running'`,
        [id],
      );
    }
    return ((performance.now() - started) * 1000) / n;
  } finally {
    client.release();
  }
}

async function writeBench() {
  const app = await newApp("bench writes");
  await writeRuns(app.id, 200); // warm-up
  const on: number[] = [];
  const off: number[] = [];
  // Alternated, so drift (other work on the machine) hits both alike. The runs written without
  // the triggers are not counted: this app's figures are not read.
  for (let round = 0; round < 3; round++) {
    on.push(await writeRuns(app.id, WRITES));
    await db().execute(sql`ALTER TABLE tool_runs DISABLE TRIGGER USER`);
    try {
      off.push(await writeRuns(app.id, WRITES));
    } finally {
      await db().execute(sql`ALTER TABLE tool_runs ENABLE TRIGGER USER`);
    }
  }
  const [a, b] = [median(on), median(off)];
  log("");
  log(
    `a run's two writes (INSERT, UPDATE): ${a.toFixed(0)} µs with the counters vs ${b.toFixed(0)} µs without, ` +
      `${(a / b).toFixed(2)}× (rounds: ${on.map((x, i) => (x / off[i]!).toFixed(2)).join(", ")})`,
  );
}

async function run() {
  log(`bench (analytics): ${RUNS.toLocaleString("en")} runs of one app over 90 days`);
  const app = await newApp("bench analytics");
  const other = await newApp("bench other");
  await fill(app, other);
  await readBench(app);
  await writeBench();
}

async function main() {
  await withScratchDb(DB_NAME, run);
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
