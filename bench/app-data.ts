import crypto from "node:crypto";
import os from "node:os";
import type { NextRequest } from "next/server";
import * as listRoute from "@/app/api/apps/[appId]/data/[entity]/route";
import { pool } from "@/db/client";
import type { App } from "@/db/schema";
import { callerOf } from "@/lib/app-data/actor";
import { createRecord } from "@/lib/app-data/records";
import { entityPath } from "@/lib/space/files";
import { appTokenFor, publish, setEntity } from "../tests/support/app-data";
import { createBuilder, createEndUser } from "../tests/support/factories";
import { call } from "../tests/support/http";
import { createSpaceApp } from "../tests/support/space";
import { withScratchDb } from "./scratch-db";
import { median, percentile } from "./stats";

// The data API benchmark of space apps (what a space app's own code pays to read and write its
// records through `@app/client`), figures only, never pass/fail, each against a baseline measured
// in this run on the same pool:
//  1. listing 50 records of an entity holding 1,000,000 (a task list: a third done, 20 categories,
//     1,000 creators, a year of records), newest first, with one equality filter, sorted by
//     updatedAt, and under the "creator" read level as an end user (their own rows only).
//     Measured: GET /api/apps/{appId}/data/{Entity} through the real route handler, in this
//     process, with a real request (the wrapper, zod, the app token's check, the session and app
//     lookup, the access level, the JSON answer), p50 and p95 (goal: p95 ≤ 20 ms). Baseline: a
//     bare query through the same index returning the same 50 rows, written apart (its filter by
//     ->>, not by containment), so the rows the API returned are checked against it. Then, beyond
//     the goal, a filter no record matches: nothing ends the walk along the index early;
//  2. creating a record: POST /api/apps/{appId}/data/{Entity} as an end user against a bare
//     INSERT ... RETURNING of the same row and against a bare route handler running it (goal:
//     ≤ 2×), with the parts of the API's time shown.
// The process runs as the production server does (NODE_ENV=production: answers are not checked
// against their schema again; bench/run.ts sets it for this child). Measured in process, not
// over HTTP: a production build is the server part's (several minutes), and HTTP adds the same
// parse and socket cost to any route.
// Run by bench/run.ts as a child process on its database (DATABASE_URL), or alone:
//   NODE_ENV=production node --conditions=react-server --import tsx bench/app-data.ts
// BENCH_RECORDS (default 1000000), BENCH_DATA_ROUNDS (default 3), BENCH_DATA_CALLS (lists, per
// case and round, default 100), BENCH_DATA_WRITES (creates, per pair and round, default 100).

const RECORDS = Number(process.env.BENCH_RECORDS ?? 1_000_000);
const CALLS = Number(process.env.BENCH_DATA_CALLS ?? 100);
const ROUNDS = Number(process.env.BENCH_DATA_ROUNDS ?? 3);
const WRITES = Number(process.env.BENCH_DATA_WRITES ?? 100);
const CREATORS = 1000;
const CATEGORIES = 20;
const PAGE = 50;
const P95_GOAL_MS = 20;
const CREATE_GOAL = 2;
const DB_NAME = "bench_app_data";
const ENTITY = "Task";

const log = (line = "") => console.log(line);
const ms = (x: number) => `${x.toFixed(2)} ms`;
const sec = (x: number) => `${(x / 1000).toFixed(1)} s`;
const times = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

const schema = JSON.stringify({
  type: "object",
  properties: {
    title: { type: "string", minLength: 1 },
    done: { type: "boolean", default: false },
    category: { type: "string" },
    due: { type: "string", format: "date" },
  },
  required: ["title"],
  "x-accessControl": { permissions: { read: "creator", write: "creator" } },
});

type Rec = { id: string; creatorId: string | null; createdAt: string; [field: string]: unknown };
type Row = { id: string; creator_id: string | null; data: Record<string, unknown>; created_at: Date };

type Setup = { app: App; builderToken: string; userToken: string; userId: string };

async function setUp(): Promise<Setup> {
  const builder = await createBuilder();
  const app = await createSpaceApp(builder.account.accountId, "Bench tasks");
  await setEntity(app, builder.account.accountId, ENTITY, schema);
  await publish(app);
  const user = await createEndUser(app.id);
  const [builderToken, userToken] = await Promise.all([
    appTokenFor(app.id, builder.token),
    appTokenFor(app.id, user.token),
  ]);
  return { app, builderToken, userToken, userId: user.user.id };
}

/** The app's other end users, then its records, by SQL (setseed: the same records every run). */
async function fill(appId: string) {
  const client = await pool().connect();
  try {
    await client.query(
      `INSERT INTO users (tenant_id, email, email_verified_at)
       SELECT $1, 'creator' || i || '@example.com', now() FROM generate_series(2, ${CREATORS}) i`,
      [appId],
    );
    const started = performance.now();
    // As a bulk load does: the secondary indexes built once after the rows (by sorting them), not
    // row by row; the same definitions, read back from the catalogue.
    const { rows: indexes } = await client.query<{ name: string; def: string }>(
      `SELECT indexname AS name, indexdef AS def FROM pg_indexes
       WHERE tablename = 'entity_records' AND indexname <> 'entity_records_pkey'`,
    );
    for (const i of indexes) await client.query(`DROP INDEX "${i.name}"`);
    // The creators by number, for a hash join (an array indexed per row is copied every time).
    await client.query(
      `CREATE TEMP TABLE bench_creators AS
       SELECT row_number() OVER (ORDER BY id) - 1 AS n, id FROM users WHERE tenant_id = $1`,
      [appId],
    );
    await client.query("ANALYZE bench_creators");
    await client.query("SELECT setseed(0.21)");
    // A year of tasks, one every ~31 s, oldest first; one in three done, a third of those edited
    // since. g in every lateral: evaluated row by row (random() once per record).
    await client.query(
      `INSERT INTO entity_records (app_id, entity, creator_id, data, created_at, updated_at)
       SELECT $1, $2, u.id,
         jsonb_build_object('title', 'Task ' || g || ': ' || (ARRAY['call', 'write to', 'book', 'pay', 'review',
             'plan', 'fix', 'send'])[1 + g % 8] || ' ' || (ARRAY['the plumber', 'the bank', 'a train', 'the report',
             'the garden', 'Mia', 'the invoice'])[1 + g % 7],
           'done', r.d < 1.0 / 3, 'category', 'c' || floor(${CATEGORIES} * r.k)::int,
           'due', (c.at + (g % 30) * interval '1 day')::date::text),
         c.at, CASE WHEN r.d < 1.0 / 9 THEN least(now(), c.at + r.e * interval '10 days') ELSE c.at END
       FROM generate_series(1, ${RECORDS}) g
       CROSS JOIN LATERAL (SELECT random() + 0 * g AS c, random() AS d, random() AS k, random() AS e) r
       CROSS JOIN LATERAL (SELECT now() - (${RECORDS} - g) * interval '31 seconds'
         - r.e * interval '1 second' AS at) c
       JOIN bench_creators u ON u.n = floor(${CREATORS} * r.c)::int`,
      [appId, ENTITY],
    );
    for (const i of indexes) await client.query(i.def);
    await client.query("DROP TABLE bench_creators");
    const filled = performance.now();
    await client.query("VACUUM ANALYZE entity_records");
    // The load's pages written out now, not by a checkpoint running beside the measurements (it
    // slowed every commit, the bare INSERT's too, threefold).
    const flushed = await client.query("CHECKPOINT").then(
      () => "",
      (err: Error) => ` (no CHECKPOINT: ${err.message})`,
    );
    const { rows } = await client.query<{ n: string; size: string }>(
      `SELECT count(*) AS n, pg_size_pretty(pg_total_relation_size('entity_records')) AS size
       FROM entity_records WHERE app_id = $1`,
      [appId],
    );
    log(
      `${Number(rows[0]!.n).toLocaleString("en")} records of ${CREATORS.toLocaleString("en")} creators written in ` +
        `${sec(filled - started)}, VACUUM ANALYZE and CHECKPOINT ${sec(performance.now() - filled)}; ` +
        `table and indexes ${rows[0]!.size}${flushed}`,
    );
  } finally {
    client.release();
  }
}

/** The same 50 rows by hand: the list index, the filter written apart (->>, not containment). */
async function bareList(
  appId: string,
  opts: { creatorId?: string; field?: [string, string]; updated?: boolean },
): Promise<Row[]> {
  const args: unknown[] = [appId, ENTITY];
  let where = "app_id = $1 AND entity = $2";
  if (opts.creatorId) {
    args.push(opts.creatorId);
    where += ` AND creator_id = $${args.length}`;
  }
  if (opts.field) {
    args.push(opts.field[0], opts.field[1]);
    where += ` AND data ->> $${args.length - 1} = $${args.length}`;
  }
  const { rows } = await pool().query<Row>(
    `SELECT id, creator_id, data, created_at FROM entity_records WHERE ${where}
     ORDER BY ${opts.updated ? "updated_at" : "created_at"} DESC, id DESC LIMIT ${PAGE}`,
    args,
  );
  return rows;
}

async function apiList(s: Setup, token: string, c: ListCase): Promise<Rec[]> {
  const params = new URLSearchParams();
  if (c.updated) params.set("sort", "-updatedAt");
  if (c.filter) params.set("filter", JSON.stringify(c.filter));
  const query = params.size ? `?${params}` : "";
  const res = await call<{ records: Rec[] }>(listRoute.GET, {
    method: "GET",
    path: `/api/apps/${s.app.id}/data/${ENTITY}${query}`,
    params: { appId: s.app.id, entity: ENTITY },
    token,
  });
  if (res.status !== 200) throw new Error(`list answered ${res.status}: ${JSON.stringify(res.json)}`);
  return res.json.records;
}

/** How many of the API's rows are the bare query's, field for field, in the same order. */
function sameRows(api: Rec[], bare: Row[]): number {
  let equal = 0;
  for (const [i, b] of bare.entries()) {
    const a = api[i];
    const same =
      a !== undefined &&
      a.id === b.id &&
      a.creatorId === b.creator_id &&
      a.createdAt === b.created_at.toISOString() &&
      Object.entries(b.data).every(([k, v]) => a[k] === v);
    if (same) equal++;
  }
  return api.length === bare.length ? equal : Math.min(equal, api.length);
}

/** Samples of `measured` and `baseline`, alternated round by round so drift hits both alike. */
async function alternate(n: number, measured: () => Promise<unknown>, baseline: () => Promise<unknown>) {
  const m: number[] = [];
  const b: number[] = [];
  const timed = async (fn: () => Promise<unknown>, out: number[]) => {
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await fn();
      out.push(performance.now() - t);
    }
  };
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      await timed(measured, m);
      await timed(baseline, b);
    } else {
      await timed(baseline, b);
      await timed(measured, m);
    }
  }
  return { m, b };
}

type ListCase = {
  label: string;
  token: (s: Setup) => string;
  filter?: Record<string, string | boolean>;
  creator?: boolean;
  updated?: boolean;
  /** Shown, not held to the goal: fewer calls. */
  beyond?: string;
};

const LIST_CASES: ListCase[] = [
  { label: "newest first", token: (s) => s.builderToken },
  { label: 'filter {"category":"c7"}', token: (s) => s.builderToken, filter: { category: "c7" } },
  { label: 'filter {"done":true}', token: (s) => s.builderToken, filter: { done: true } },
  { label: "creator: own rows", token: (s) => s.userToken, creator: true },
  { label: 'creator + {"done":true}', token: (s) => s.userToken, creator: true, filter: { done: true } },
  { label: "sort=-updatedAt", token: (s) => s.builderToken, updated: true },
  // A value no record holds: nothing stops the walk along the index before its end. The worst an
  // equality filter on a JSON field can cost (a value held only by old records costs as much).
  {
    label: 'filter {"title":"(none)"}',
    token: (s) => s.builderToken,
    filter: { title: "(none)" },
    beyond: "a value no record holds reads every record of the entity",
  },
];

async function listBench(s: Setup) {
  log("");
  log(
    `listing ${PAGE} records, ${ROUNDS} rounds × ${CALLS} calls each (the builder as the app's admin reads every ` +
      "row; an end user under the creator level reads their own ~1,000):",
  );
  log(
    `${"list".padEnd(28)}${"API p50".padStart(10)}${"API p95".padStart(10)}${"bare p50".padStart(10)}` +
      `${"bare p95".padStart(10)}${"p50 ÷".padStart(8)}${"p95 ÷".padStart(8)}   rows checked`,
  );
  const results: { label: string; p95: number; beyond?: string }[] = [];
  for (const c of LIST_CASES) {
    const field = c.filter ? (Object.entries(c.filter)[0] as [string, unknown]) : undefined;
    const bare = () =>
      bareList(s.app.id, {
        creatorId: c.creator ? s.userId : undefined,
        field: field && [field[0], String(field[1])],
        updated: c.updated,
      });
    const api = () => apiList(s, c.token(s), c);
    const calls = c.beyond ? 3 : CALLS;
    for (let i = 0; i < (c.beyond ? 1 : 10); i++) await Promise.all([api(), bare()]); // warm-up: plans, pages, the JIT
    const [got, expected] = [await api(), await bare()];
    const { m, b } = await alternate(calls, api, bare);
    const [p50, p95, b50, b95] = [median(m), percentile(m, 95), median(b), percentile(b, 95)];
    log(
      `${c.label.padEnd(28)}${ms(p50).padStart(10)}${ms(p95).padStart(10)}${ms(b50).padStart(10)}` +
        `${ms(b95).padStart(10)}${times(p50, b50).padStart(8)}${times(p95, b95).padStart(8)}   ` +
        `${sameRows(got, expected)}/${expected.length} equal${c.beyond ? ` (${calls * ROUNDS} calls)` : ""}`,
    );
    results.push({ label: c.label, p95, beyond: c.beyond });
  }
  log("");
  for (const r of results) {
    log(
      r.beyond
        ? `${r.label}: p95 ${ms(r.p95)}, beyond the goal's cases: ${r.beyond}`
        : r.p95 <= P95_GOAL_MS
          ? `${r.label}: p95 ${ms(r.p95)}, meets the goal (≤ ${P95_GOAL_MS} ms)`
          : `${r.label}: p95 ${ms(r.p95)}, ABOVE the goal (≤ ${P95_GOAL_MS} ms): EXPLAIN listRuntimeRecords (db/queries/app-data.ts)`,
    );
  }
}

const CREATE_SQL = `INSERT INTO entity_records (app_id, entity, creator_id, data) VALUES ($1, $2, $3, $4)
  RETURNING id, creator_id, data, created_at, updated_at`;

type Created = {
  id: string;
  creator_id: string;
  data: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
};

/**
 * Creating a record, against two baselines of the same row (same table and indexes, same pool):
 *  - the bare INSERT ... RETURNING, one prepared statement (what the goal names);
 *  - a bare route handler that reads the JSON body, runs that INSERT and answers the record as
 *    JSON, called the same way as the real one: the request and the answer cost the same to any
 *    route (bench/run.ts holds an app save to 2× such a bare handler, for the same reason).
 * The API must also know who calls and the entity's schema before it may write (the app token's
 * signature, then the session and the app with its entity file, read at once), check the fields:
 * its caller alone and its service alone are shown, so the ratio's cause is visible.
 */
async function createBench(s: Setup) {
  const fields = (i: number) => ({
    title: `Bench task ${i}`,
    done: i % 3 === 0,
    category: `c${i % CATEGORIES}`,
  });
  const path = `/api/apps/${s.app.id}/data/${ENTITY}`;
  const params = { appId: s.app.id, entity: ENTITY };
  // A named prepared statement, as the API's own INSERT is.
  const insert = (data: Record<string, unknown>) =>
    pool().query<Created>({
      name: "bench_insert",
      text: CREATE_SQL,
      values: [s.app.id, ENTITY, s.userId, data],
    });
  const bareHandler = async (req: NextRequest) => {
    const { rows } = await insert(await req.json());
    const r = rows[0]!;
    return Response.json({
      ...r.data,
      id: r.id,
      creatorId: r.creator_id,
      createdAt: r.created_at.toISOString(),
      updatedAt: r.updated_at.toISOString(),
    });
  };
  let n = 0;
  const through = async (handler: Parameters<typeof call>[0]) => {
    const res = await call<Rec>(handler, { path, params, token: s.userToken, body: fields(n++) });
    if (res.status !== 200) throw new Error(`create answered ${res.status}: ${JSON.stringify(res.json)}`);
    return res.json;
  };
  const api = () => through(listRoute.POST);
  const bareRoute = () => through(bareHandler);
  const data = { appId: s.app.id, entity: ENTITY, bearer: s.userToken, ip: "127.0.0.1" };
  const service = () => createRecord(data, fields(n++));
  const caller = () => callerOf(s.app.id, s.userToken, entityPath(ENTITY));
  const bare = () => insert(fields(n++));
  for (let i = 0; i < 20; i++) await Promise.all([api(), bareRoute(), service(), caller(), bare()]); // warm-up

  const first = await api();
  const { rows } = await pool().query<Row>(
    "SELECT id, creator_id, data, created_at FROM entity_records WHERE id = $1",
    [first.id],
  );
  const checked = rows[0] !== undefined && sameRows([first], rows) === 1 && first.creatorId === s.userId;

  const writes = WRITES;
  const vsStatement = await alternate(writes, api, bare);
  const vsRoute = await alternate(writes, api, bareRoute);
  const parts = await alternate(writes, service, caller);
  log("");
  log(`creating a record (an end user, ${ROUNDS} rounds × ${writes} writes per pair, alternated):`);
  log(`${"".padEnd(48)}${"p50".padStart(10)}${"p95".padStart(10)}`);
  const line = (label: string, xs: number[]) =>
    log(`${label.padEnd(48)}${ms(median(xs)).padStart(10)}${ms(percentile(xs, 95)).padStart(10)}`);
  const apiAll = [...vsStatement.m, ...vsRoute.m];
  line("POST /data/Task (the route handler)", apiAll);
  line("  its service alone (createRecord)", parts.m);
  line("  its caller alone (token; session and app)", parts.b);
  line("bare route handler: JSON body, INSERT, JSON", vsRoute.b);
  line("bare INSERT ... RETURNING", vsStatement.b);
  const ratio = (x: { m: number[]; b: number[] }) => median(x.m) / median(x.b);
  const p95s = (x: { m: number[]; b: number[] }) => times(percentile(x.m, 95), percentile(x.b, 95));
  log(
    `POST ÷ bare INSERT = ${ratio(vsStatement).toFixed(2)}× at p50 (${p95s(vsStatement)} at p95); ` +
      `POST ÷ bare route handler = ${ratio(vsRoute).toFixed(2)}× at p50 (${p95s(vsRoute)} at p95)`,
  );
  log(`the first answer checked against the stored row: ${checked ? "equal" : "DIFFERENT"}`);
  for (const [label, x] of [
    ["against the bare route handler", vsRoute],
    ["against the bare INSERT", vsStatement],
  ] as const) {
    log(
      ratio(x) <= CREATE_GOAL
        ? `${label}: meets the goal (≤ ${CREATE_GOAL}×)`
        : `${label}: ABOVE the goal (≤ ${CREATE_GOAL}×): lib/app-data/actor.ts, records.ts (createRecord)`,
    );
  }
}

async function main() {
  if (!process.env.AUTH_SECRET) process.env.AUTH_SECRET = crypto.randomBytes(32).toString("base64url");
  await withScratchDb(DB_NAME, async () => {
    log(`bench (app data): ${RECORDS.toLocaleString("en")} records of one entity of a space app`);
    const s = await setUp();
    await fill(s.app.id);
    const load = () => os.loadavg()[0]!.toFixed(1);
    const before = load();
    await listBench(s);
    await createBench(s);
    // Latency, not CPU: other work on the machine shows in the p95s (the ratios are of alternated rounds).
    log(
      `load average (1 min) of this machine's ${os.availableParallelism()} cores: ${before} before, ${load()} after`,
    );
  });
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
