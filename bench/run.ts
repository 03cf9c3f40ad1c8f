import { spawn } from "node:child_process";
import crypto from "node:crypto";
import path from "node:path";
import autocannon from "autocannon";
import { closeDb } from "../db/client";
import { migrateDatabase } from "../db/migrate";
import { insertAccountIfMissing } from "../db/queries/accounts";
import { insertSession } from "../db/queries/sessions";
import { insertUser } from "../db/queries/users";
import { claimsFor } from "../lib/auth/claims";
import { encodeBearerToken } from "../lib/auth/session-token";
import { adminQuery, startLocalPostgres } from "../scripts/local-db";
import { recordAnswer, type SaveSlot, saveBody, saveClients, seedSaveApps, slotFailures } from "./app-save";
import { commandLine, processTree, ticksPerSecond, treeCpuMicros } from "./cpu";
import { firstLoadReport } from "./first-load";
import { buildReason, type NextServer, nextBuild, startNext } from "./next-server";
import { runFirstByteBench } from "./run-first-byte";
import { runChangesBench } from "./space-changes";
import { runGridScrollBench } from "./space-grid-scroll";
import { median } from "./stats";

// npm run bench - against one production server, in this run, server CPU per request:
//  - GET /api/live_api/account/current (bearer token, through route()) as a ratio to a bare route
//    handler running the same single-row session query;
//  - an app save, PATCH /api/apps/{appId} (session, access check, zod, field rules, revision
//    check, update), as a ratio to a bare handler doing the same single-row UPDATE ... WHERE
//    revision = $2 RETURNING. Every save succeeds: each connection edits its own app and names
//    the revision of the previous answer;
// then the first-load JS of the public app page and the editor as ratios to a minimal page,
// read from the build. Prints figures only, never pass/fail.
//
// BENCH_REQUESTS (per route and round, default 2000), BENCH_ROUNDS (default 6),
// BENCH_CONNECTIONS (default 10), BENCH_BUILD=1 to rebuild .next regardless, BENCH_APP_DIR to
// build and serve another checkout of the app (e.g. a snapshot of a commit while the working
// tree is mid-change; the database is still migrated and seeded by this tree's db/, so their
// schemas must agree).
//
// Then the first byte of a tool run (bench/run-first-byte.ts): the time to the first words of
// POST /api/apps/{appId}/run against the same stream asked of the model server directly.
//
// Then the data-source benchmarks (bench/context.ts): ingestion of a CSV and a PDF against parsing
// alone, a worker's peak memory, retrieval over 1,000,000 chunks.
//
// Then the retrieval-quality benchmark (bench/retrieval-quality.ts): recall@10 of a run's retrieval
// over real-world CSVs (an npm dataset package, fetched and cached at bench time), PDFs and Word
// files, against brute-force BM25 over the same chunks and the ranking from before BM25.
//
// Then the analytics benchmark (bench/analytics.ts): the analytics of an app of 1,000,000 runs
// against the same figures read from tool_runs alone, and what its counters cost a run's writes.
//
// Then the space app benchmarks (bench/space-versions.ts): the storage a version of a 200-file app
// costs after a one-file change, against that file's size; building a 50-file version's preview
// bundle (bench/space-preview.ts), cold and cached, against esbuild bundling the same files from disk.
//
// Then the data API benchmark of space apps (bench/app-data.ts): listing 50 records of an entity of
// 1,000,000 through the route handler (newest first, filtered, a creator's own) against a bare
// indexed query returning the same rows, and creating a record against a bare INSERT.
//
// Then the Database panel's first reads (bench/space-panel.ts): the entities of a 200-file app with 20
// entities and the first page of an entity's records, through the route handlers, against bare
// queries of the same rows.
//
// Then the CSV import (bench/csv-import.ts): a 100,000-row CSV imported into an entity, upload to
// every row visible in the panel, against COPY of the same rows into the same table; and the spec's
// pattern of 10-row bulk creates beside it.
//
// Then scrolling the Database panel's records grid of 100,000 records in headless Chromium
// (bench/space-grid-scroll.ts): frame times of continuous and jump scrolling against a plain
// scrolling div of the same height, blank rows in view, rows in the page.
//
// Then the backend functions of space apps (bench/functions.ts): a warm call of a small function
// through its public URL's route handler against the same handler under a bare `deno serve`, a cold
// start after a new deploy against an empty `deno run`, and 100 calls at once against the same.
//
// Then the validation of space apps (bench/space-validate.ts): over the fixture apps of
// tests/fixtures/validation/, the detection rate of the broken apps' known defects, the false
// positives, and the time to validate one app against the preview build of the same files alone.
//
// Then the all-changes dialog of a 200-file version in headless Chromium (bench/space-changes.ts):
// from the click on an answer's "View changes" (and on the Versions dialog's "Compare with current")
// to its tree of 200 files and the first file's diff painted, the network's part of it, against
// the fetches alone and plain rows inserted by the page.
//
// BENCH_ONLY=server|run|context|quality|analytics|space|data|panel|import|grid|functions|validation|changes (several comma-separated) runs only those
// parts: BENCH_ONLY=quality npm run bench for the retrieval quality alone. BENCH_PORT and
// BENCH_PG_PORT move the server and the embedded PostgreSQL (default 3300 and 54359).

const PORT = Number(process.env.BENCH_PORT ?? 3300);
const PG_PORT = Number(process.env.BENCH_PG_PORT ?? 54359);
const DB_NAME = "bench";
// Server CPU budgets, as multiples of the bare route doing the same database work. A save cannot
// come near the bare UPDATE: before writing it must read the session and the app (access check)
// and validate the whole content; 2× leaves room for that, not for more round trips.
const ROUTE_TARGET = 1.2;
const SAVE_TARGET = 2;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WARMUP_REQUESTS = 1500;
const APP_DIR = path.resolve(process.env.BENCH_APP_DIR ?? ".");
const PARTS = [
  "server",
  "run",
  "context",
  "quality",
  "analytics",
  "space",
  "data",
  "panel",
  "import",
  "grid",
  "functions",
  "validation",
  "changes",
] as const;
// BENCH_ONLY names the parts to run, comma-separated (default: all).
const ONLY = process.env.BENCH_ONLY?.split(",")
  .map((p) => p.trim())
  .filter(Boolean);
const wants = (part: (typeof PARTS)[number]) => !ONLY?.length || ONLY.includes(part);

type Target = {
  name: string;
  path: string;
  headers: Record<string, string>;
  /** For requests that depend on earlier answers: a fresh autocannon setupClient per load. */
  setupClient?: () => (client: autocannon.Client) => void;
  /** The apps a save target writes to, one per connection. */
  slots?: SaveSlot[];
};
/** One figure: a route measured against its bare baseline, and the budget for their ratio. */
type Comparison = { label: string; baseline: Target; measured: Target; target: number; advice: string };
type Sample = { requests: number; cpuMicros: number; seconds: number; p50: number; p99: number };

const cleanups: (() => Promise<unknown>)[] = [];

async function cleanup() {
  while (cleanups.length) {
    const step = cleanups.pop()!;
    await step().catch((err) => console.error("cleanup:", err));
  }
}

async function prepareDatabase() {
  const local = await startLocalPostgres(path.resolve(".data/bench-postgres"), PG_PORT);
  cleanups.push(local.stop);
  await adminQuery(local.adminUrl, `DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`);
  await adminQuery(local.adminUrl, `CREATE DATABASE "${DB_NAME}"`);
  cleanups.push(() => adminQuery(local.adminUrl, `DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`));
  return local.urlFor(DB_NAME);
}

async function seedBuilder() {
  const user = (await insertUser({
    tenantId: null,
    email: "bench-builder@example.com",
    passwordHash: null,
    emailVerifiedAt: new Date(),
  }))!;
  const account = await insertAccountIfMissing({ userId: user.id, accountType: "builder", appId: null });
  // The session a sign-in would open (lib/auth/sessions.ts is server-only; this is its insert).
  const session = await insertSession({ userId: user.id, expiresAt: new Date(Date.now() + 86_400_000) });
  const claims = claimsFor(user, session.id);
  const token = await encodeBearerToken(claims);
  // The builder's apps: one per connection for the real saves, as many for the bare ones.
  const saveSlots = await seedSaveApps(account.accountId, CONNECTIONS, "save");
  const bareSlots = await seedSaveApps(account.accountId, CONNECTIONS, "bare save");
  await closeDb();
  return { user, token, sessionId: claims.sid, saveSlots, bareSlots };
}

async function load(server: NextServer, target: Target, amount: number): Promise<Sample> {
  const before = treeCpuMicros(server.pid);
  const started = process.hrtime.bigint();
  const result = await autocannon({
    url: server.url + target.path,
    headers: target.headers,
    connections: CONNECTIONS,
    amount,
    setupClient: target.setupClient?.(),
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpuMicros = treeCpuMicros(server.pid) - before;
  const bad = result.non2xx + result.errors + result.timeouts;
  const failedSaves = target.slots && slotFailures(target.slots);
  if (bad > 0 || failedSaves) {
    throw new Error(
      `${target.name}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts\n` +
        `${failedSaves ?? ""}\n${server.output()}`,
    );
  }
  return { requests: result["2xx"], cpuMicros, seconds, p50: result.latency.p50, p99: result.latency.p99 };
}

function summarize(samples: Sample[]) {
  const requests = samples.reduce((s, x) => s + x.requests, 0);
  const cpu = samples.reduce((s, x) => s + x.cpuMicros, 0);
  const seconds = samples.reduce((s, x) => s + x.seconds, 0);
  return {
    requests,
    cpuPerRequest: cpu / requests,
    reqPerSecond: requests / seconds,
    p50: median(samples.map((s) => s.p50)),
    p99: median(samples.map((s) => s.p99)),
  };
}

const fmt = (n: number, digits = 0) => n.toFixed(digits).padStart(8);

/** One real save (to the target's first app) before the load, so a broken save stops the run early. */
async function checkSave(server: NextServer, target: Target) {
  const slot = target.slots![0]!;
  const res = await fetch(server.url + target.path, {
    method: "PATCH",
    headers: { ...target.headers, "content-type": "application/json" },
    body: saveBody(slot),
  });
  recordAnswer(slot, res.status, await res.text());
  if (slot.failure) throw new Error(`${target.name}: the first save failed: ${slot.failure}`);
}

/** Every answer was a real save: each app's revision in the database is the one its connection last saw. */
async function verifySaves(databaseUrl: string, slots: SaveSlot[]): Promise<number> {
  const { rows } = await adminQuery(
    databaseUrl,
    `SELECT id, revision FROM apps WHERE id IN (${slots.map((s) => `'${s.appId}'`).join(", ")})`,
  );
  const stored = new Map(rows.map((r: { id: string; revision: number }) => [r.id, r.revision]));
  for (const slot of slots) {
    const revision = stored.get(slot.appId);
    if (revision !== slot.revision || revision !== 1 + slot.saves) {
      throw new Error(
        `app ${slot.appId}: revision ${revision} stored, ${slot.revision} seen, ${slot.saves} saves`,
      );
    }
  }
  return slots.reduce((sum, s) => sum + s.saves, 0);
}

async function main() {
  console.log(`bench: embedded PostgreSQL on ${PG_PORT}, fresh database "${DB_NAME}"`);
  const databaseUrl = await prepareDatabase();
  // Before anything reads lib/env or opens the pool.
  process.env.DATABASE_URL = databaseUrl;
  process.env.AUTH_SECRET = crypto.randomBytes(32).toString("base64url");
  process.env.APP_URL = `http://localhost:${PORT}`;
  const unknown = ONLY?.filter((p) => !(PARTS as readonly string[]).includes(p));
  if (unknown?.length)
    throw new Error(`BENCH_ONLY: unknown part ${unknown.join(", ")} (${PARTS.join(", ")})`);
  await migrateDatabase(databaseUrl);
  if (wants("server")) await serverBench(databaseUrl);
  if (wants("run"))
    await runFirstByteBench((extra) => startBuilt({ ...serverEnv(), ...extra }, "/api/openapi.json"));
  if (wants("context")) await benchInChild("bench/context.ts", databaseUrl);
  if (wants("quality")) await benchInChild("bench/retrieval-quality.ts", databaseUrl);
  if (wants("analytics")) await benchInChild("bench/analytics.ts", databaseUrl);
  if (wants("space")) {
    await benchInChild("bench/space-versions.ts", databaseUrl);
    await benchInChild("bench/space-preview.ts", databaseUrl);
  }
  // As the production server runs: answers are not checked against their schema again.
  if (wants("data")) await benchInChild("bench/app-data.ts", databaseUrl, { NODE_ENV: "production" });
  if (wants("panel")) await benchInChild("bench/space-panel.ts", databaseUrl, { NODE_ENV: "production" });
  if (wants("import")) await benchInChild("bench/csv-import.ts", databaseUrl, { NODE_ENV: "production" });
  if (wants("grid")) {
    await runGridScrollBench(
      (extra) => startBuilt({ ...serverEnv(), ...extra }, "/api/openapi.json"),
      databaseUrl,
    );
  }
  if (wants("functions")) await benchInChild("bench/functions.ts", databaseUrl, { NODE_ENV: "production" });
  if (wants("validation")) await benchInChild("bench/space-validate.ts", databaseUrl);
  if (wants("changes")) {
    await runChangesBench(
      (extra) => startBuilt({ ...serverEnv(), ...extra }, "/api/openapi.json"),
      databaseUrl,
    );
  }
}

const serverEnv = (): NodeJS.ProcessEnv => ({ ...process.env, NEXT_TELEMETRY_DISABLED: "1" });

let built = false;

/** The production server of APP_DIR, built first when .next is stale (once a run). */
async function startBuilt(env: NodeJS.ProcessEnv, readyPath: string): Promise<NextServer> {
  if (!built) {
    const reason = buildReason(APP_DIR);
    if (reason) {
      console.log(`bench: building (next build in ${APP_DIR}): ${reason}`);
      await nextBuild(APP_DIR, env);
    } else {
      console.log("bench: .next is up to date, not building");
    }
    built = true;
  }
  const server = await startNext(APP_DIR, PORT, env, readyPath);
  cleanups.push(server.stop);
  return server;
}

async function serverBench(databaseUrl: string) {
  const { token, sessionId, saveSlots, bareSlots } = await seedBuilder();

  const env: NodeJS.ProcessEnv = { ...serverEnv(), BENCH_ROUTES: "1" };
  const bearer = { authorization: `Bearer ${token}` };
  const comparisons: Comparison[] = [
    {
      label: "account/current",
      baseline: { name: "baseline (bare route)", path: `/api/bench/baseline?id=${sessionId}`, headers: {} },
      measured: { name: "account/current", path: "/api/live_api/account/current", headers: bearer },
      target: ROUTE_TARGET,
      advice: "optimise route()",
    },
    {
      label: "app save",
      baseline: {
        name: "save baseline (bare)",
        path: `/api/bench/save-baseline?id=${bareSlots[0]!.appId}`,
        headers: {},
        setupClient: () => saveClients(bareSlots, (id) => `/api/bench/save-baseline?id=${id}`, {}),
        slots: bareSlots,
      },
      measured: {
        name: "app save (PATCH)",
        path: `/api/apps/${saveSlots[0]!.appId}`,
        headers: bearer,
        setupClient: () => saveClients(saveSlots, (id) => `/api/apps/${id}`, bearer),
        slots: saveSlots,
      },
      target: SAVE_TARGET,
      advice: "look at the queries of lib/apps/save-app.ts",
    },
  ];
  const targets = comparisons.flatMap((c) => [c.baseline, c.measured]);

  const server = await startBuilt(env, comparisons[0]!.baseline.path);
  const account = comparisons[0]!.measured;
  const check = await fetch(server.url + account.path, { headers: account.headers });
  const checkBody = await check.text();
  if (check.status !== 200) throw new Error(`account/current answered ${check.status}: ${checkBody}`);
  for (const t of targets) if (t.slots) await checkSave(server, t);

  console.log(`bench: next start on ${PORT}, warming up (${WARMUP_REQUESTS} requests per route)`);
  for (const t of targets) await load(server, t, WARMUP_REQUESTS);
  console.log("bench: server process tree (CPU is summed over all of it):");
  for (const p of processTree(server.pid)) {
    const secs = (p.ticks / ticksPerSecond()).toFixed(2);
    console.log(`  pid ${p.pid} (ppid ${p.ppid}) ${secs}s CPU  ${commandLine(p.pid) || p.comm}`);
  }

  console.log(`bench: ${ROUNDS} rounds x ${REQUESTS} requests per route, ${CONNECTIONS} connections`);
  const samples = new Map<Target, Sample[]>(targets.map((t) => [t, []]));
  const roundRatios = new Map<Comparison, number[]>(comparisons.map((c) => [c, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const parts: string[] = [];
    for (const c of comparisons) {
      // Alternate the order so drift (thermal, other work on the machine) hits both alike.
      const order = round % 2 === 0 ? [c.baseline, c.measured] : [c.measured, c.baseline];
      for (const t of order) samples.get(t)!.push(await load(server, t, REQUESTS));
      const [b, m] = [samples.get(c.baseline)!.at(-1)!, samples.get(c.measured)!.at(-1)!];
      const ratio = m.cpuMicros / m.requests / (b.cpuMicros / b.requests);
      roundRatios.get(c)!.push(ratio);
      parts.push(
        `${c.label} ${(m.cpuMicros / m.requests).toFixed(0)} vs ${(b.cpuMicros / b.requests).toFixed(0)} µs/req ` +
          `${ratio.toFixed(2)}×`,
      );
    }
    console.log(`  round ${round + 1}: ${parts.join("; ")}`);
  }
  const saves = await verifySaves(databaseUrl, [...saveSlots, ...bareSlots]);
  console.log(`bench: ${saves} saves in all, each app's stored revision the one its connection last saw`);

  const summaries = new Map(targets.map((t) => [t, summarize(samples.get(t)!)]));
  console.log("");
  const head = ["requests".padStart(9), "CPU µs/req".padStart(11), "req/s".padStart(8)];
  console.log(`${"route".padEnd(24)}${head.join(" ")} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)}`);
  for (const t of targets) {
    const s = summaries.get(t)!;
    console.log(
      `${t.name.padEnd(24)}${String(s.requests).padStart(9)} ${fmt(s.cpuPerRequest).padStart(11)} ` +
        `${fmt(s.reqPerSecond)} ${fmt(s.p50, 1)} ${fmt(s.p99, 1)}`,
    );
  }
  for (const c of comparisons) {
    const ratio = summaries.get(c.measured)!.cpuPerRequest / summaries.get(c.baseline)!.cpuPerRequest;
    const rounds = roundRatios.get(c)!;
    console.log("");
    console.log(
      `${c.measured.name} ÷ ${c.baseline.name} = ${ratio.toFixed(2)}× server CPU per request ` +
        `(rounds: ${rounds.map((r) => r.toFixed(2)).join(", ")}; median ${median(rounds).toFixed(2)}×)`,
    );
    console.log(
      ratio <= c.target
        ? `meets the target (≤ ${c.target}×)`
        : `ABOVE the target (≤ ${c.target}×): ${c.advice}`,
    );
  }

  console.log("");
  for (const line of firstLoadReport(APP_DIR)) console.log(line);
  // Not left idling beside the data-source benchmarks that follow.
  await server.stop();
}

/**
 * A benchmark file in a process of its own: they call the app's server-only modules, which load
 * only under --conditions=react-server (as `npm run worker` runs).
 */
async function benchInChild(file: string, databaseUrl: string, env: Record<string, string> = {}) {
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", file], {
      stdio: "inherit",
      env: { ...process.env, DATABASE_URL: databaseUrl, ...env },
    });
    cleanups.push(async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
    });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${file} exited with ${code}`))));
  });
}

process.on("SIGINT", () => {
  void cleanup().finally(() => process.exit(130));
});
process.on("SIGTERM", () => {
  void cleanup().finally(() => process.exit(143));
});

main()
  .catch((err) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exitCode = 1;
  })
  .finally(cleanup);
