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
import { commandLine, processTree, ticksPerSecond, treeCpuMicros } from "./cpu";
import { buildReason, type NextServer, nextBuild, startNext } from "./next-server";

// npm run bench - server CPU per request of GET /api/live_api/account/current (bearer token,
// through route()) as a ratio to a bare route handler running the same single-row query,
// both measured in this run against one production server (DESIGN §10). Prints figures only.
//
// BENCH_REQUESTS (per route and round, default 2000), BENCH_ROUNDS (default 6),
// BENCH_CONNECTIONS (default 10), BENCH_BUILD=1 to rebuild .next regardless, BENCH_APP_DIR to
// build and serve another checkout of the app (e.g. a snapshot of a commit while the working
// tree is mid-change; the database is still migrated and seeded by this tree's db/, so their
// schemas must agree).

const PORT = 3300;
const PG_PORT = 54359;
const DB_NAME = "bench";
const TARGET = 1.2;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WARMUP_REQUESTS = 1500;
const APP_DIR = path.resolve(process.env.BENCH_APP_DIR ?? ".");

type Target = { name: string; path: string; headers: Record<string, string> };
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
  await insertAccountIfMissing({ userId: user.id, accountType: "builder", appId: null });
  // The session a sign-in would open (lib/auth/sessions.ts is server-only; this is its insert).
  const session = await insertSession({ userId: user.id, expiresAt: new Date(Date.now() + 86_400_000) });
  const claims = claimsFor(user, session.id);
  const token = await encodeBearerToken(claims);
  await closeDb();
  return { user, token, sessionId: claims.sid };
}

async function load(server: NextServer, target: Target, amount: number): Promise<Sample> {
  const before = treeCpuMicros(server.pid);
  const started = process.hrtime.bigint();
  const result = await autocannon({
    url: server.url + target.path,
    headers: target.headers,
    connections: CONNECTIONS,
    amount,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpuMicros = treeCpuMicros(server.pid) - before;
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) {
    throw new Error(
      `${target.name}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts\n${server.output()}`,
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

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const fmt = (n: number, digits = 0) => n.toFixed(digits).padStart(8);

async function main() {
  console.log(`bench: embedded PostgreSQL on ${PG_PORT}, fresh database "${DB_NAME}"`);
  const databaseUrl = await prepareDatabase();
  // Before anything reads lib/env or opens the pool.
  process.env.DATABASE_URL = databaseUrl;
  process.env.AUTH_SECRET = crypto.randomBytes(32).toString("base64url");
  process.env.APP_URL = `http://localhost:${PORT}`;
  await migrateDatabase(databaseUrl);
  const { token, sessionId } = await seedBuilder();

  const env: NodeJS.ProcessEnv = { ...process.env, BENCH_ROUTES: "1", NEXT_TELEMETRY_DISABLED: "1" };
  const reason = buildReason(APP_DIR);
  if (reason) {
    console.log(`bench: building (next build in ${APP_DIR}): ${reason}`);
    await nextBuild(APP_DIR, env);
  } else {
    console.log("bench: .next is up to date, not building");
  }

  const targets: Target[] = [
    { name: "baseline (bare route)", path: `/api/bench/baseline?id=${sessionId}`, headers: {} },
    {
      name: "account/current",
      path: "/api/live_api/account/current",
      headers: { authorization: `Bearer ${token}` },
    },
  ];
  const server = await startNext(APP_DIR, PORT, env, targets[0]!.path);
  cleanups.push(server.stop);
  const check = await fetch(server.url + targets[1]!.path, { headers: targets[1]!.headers });
  const checkBody = await check.text();
  if (check.status !== 200) throw new Error(`account/current answered ${check.status}: ${checkBody}`);

  console.log(`bench: next start on ${PORT}, warming up (${WARMUP_REQUESTS} requests per route)`);
  for (const t of targets) await load(server, t, WARMUP_REQUESTS);
  console.log("bench: server process tree (CPU is summed over all of it):");
  for (const p of processTree(server.pid)) {
    const secs = (p.ticks / ticksPerSecond()).toFixed(2);
    console.log(`  pid ${p.pid} (ppid ${p.ppid}) ${secs}s CPU  ${commandLine(p.pid) || p.comm}`);
  }

  console.log(`bench: ${ROUNDS} rounds x ${REQUESTS} requests per route, ${CONNECTIONS} connections`);
  const samples: Sample[][] = targets.map(() => []);
  const roundRatios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate the order so drift (thermal, other work on the machine) hits both alike.
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) samples[i]!.push(await load(server, targets[i]!, REQUESTS));
    const [b, a] = [samples[0]!.at(-1)!, samples[1]!.at(-1)!];
    const ratio = a.cpuMicros / a.requests / (b.cpuMicros / b.requests);
    roundRatios.push(ratio);
    console.log(
      `  round ${round + 1}: baseline ${(b.cpuMicros / b.requests).toFixed(0)} µs/req, ` +
        `account/current ${(a.cpuMicros / a.requests).toFixed(0)} µs/req, ratio ${ratio.toFixed(2)}×`,
    );
  }

  const [base, acct] = samples.map(summarize) as [ReturnType<typeof summarize>, ReturnType<typeof summarize>];
  console.log("");
  const head = ["requests".padStart(9), "CPU µs/req".padStart(11), "req/s".padStart(8)];
  console.log(`${"route".padEnd(24)}${head.join(" ")} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)}`);
  for (const [i, s] of [base, acct].entries()) {
    console.log(
      `${targets[i]!.name.padEnd(24)}${String(s.requests).padStart(9)} ${fmt(s.cpuPerRequest).padStart(11)} ` +
        `${fmt(s.reqPerSecond)} ${fmt(s.p50, 1)} ${fmt(s.p99, 1)}`,
    );
  }
  const ratio = acct.cpuPerRequest / base.cpuPerRequest;
  console.log("");
  console.log(
    `account/current ÷ baseline = ${ratio.toFixed(2)}× server CPU per request ` +
      `(rounds: ${roundRatios.map((r) => r.toFixed(2)).join(", ")}; median ${median(roundRatios).toFixed(2)}×)`,
  );
  console.log(
    ratio <= TARGET ? `meets the target (≤ ${TARGET}×)` : `ABOVE the target (≤ ${TARGET}×): optimise route()`,
  );
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
