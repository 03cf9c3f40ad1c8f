import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import * as publicRoute from "@/app/api/apps/[appId]/functions/[name]/route";
import { pool } from "@/db/client";
import { reserveFunctionCallAndRead } from "@/db/queries/app-functions";
import { findAppById } from "@/db/queries/apps";
import type { App } from "@/db/schema";
import { route } from "@/lib/api/route";
import { denoBinaryPath } from "@/lib/functions/deno-binary";
import { deployedCode, deployFunction } from "@/lib/functions/deploy";
import { callFunction } from "@/lib/functions/runtime";
import { readSecretValues, saveSecrets } from "@/lib/secrets/secrets";
import { functionCallSlot } from "@/lib/security/rate-limit";
import { publish } from "../tests/support/app-data";
import { createBuilder, fromIp, randomIp } from "../tests/support/factories";
import { createSpaceApp, say } from "../tests/support/space";
import { withScratchDb } from "./scratch-db";
import { percentile } from "./stats";

// The backend functions benchmark of space apps (what a webhook or a space app's own code pays to
// call one of its functions), figures only, never pass/fail, each against a baseline measured in
// this run:
//  1. a warm call: a small function (reads a secret, parses a JSON body, answers JSON) of a
//     published app, called through its public URL's route handler in this process with real
//     requests (the wrapper, the statement that takes the per-address point and reads the app and
//     the versions of the deployed code and secrets this server holds, the call to its warm Deno
//     process), against the same handler served by a bare `deno serve` on a loopback port, called
//     over HTTP from this process with the same body (goal: ≤ 2× its p50). In the same turns, where
//     its time goes: an empty route handler through the same wrapper, the statement alone, a bare
//     PostgreSQL round trip (`select 1`) and the runtime's call alone; the floor of any public
//     call (its point must be taken in PostgreSQL before the function runs) is their sum;
//  2. a cold start: the first call after the code changed (a new deploy: the bundle built, a new
//     Deno process started and its first answer), repeated, against `deno run` of an empty script
//     to its exit (Deno's own floor) and the bare `deno serve` from its spawn to its first answer
//     (goal: ≤ 500 ms at p50);
//  3. 100 calls at once through the route handler against 100 at once to the bare `deno serve`:
//     the whole burst's time and each call's p50/p95/max.
// Every answer's body is checked against the one expected (the count of equal answers is printed
// beside the speed). Each call comes from its own address, as webhooks from many senders do: the
// per-address limit is taken, never reached.
// Run by bench/run.ts as a child process on its database (DATABASE_URL, NODE_ENV=production), or alone:
//   NODE_ENV=production node --conditions=react-server --import tsx bench/functions.ts
// BENCH_FN_CALLS (warm calls of each, default 300), BENCH_FN_COLD (cold starts, default 10).

const CALLS = Number(process.env.BENCH_FN_CALLS ?? 300);
const COLD = Number(process.env.BENCH_FN_COLD ?? 10);
const CONCURRENT = 100;
const WARMUP = 30;
const WARM_GOAL = 2;
const COLD_GOAL_MS = 500;
const NAME = "greet";
const SECRET = "BENCH_GREETING";
const SECRET_VALUE = "Hello";

const log = (line = "") => console.log(line);
const ms = (x: number) => `${x.toFixed(1)} ms`;
const stats = (xs: number[]) =>
  `p50 ${ms(percentile(xs, 50))}, p95 ${ms(percentile(xs, 95))}, max ${ms(Math.max(...xs))}`;

// The function's handler, the same text in both: the deployed file exports it, the bare server
// serves it with `deno serve`.
const HANDLER = `
const handler = async (req: Request): Promise<Response> => {
  const greeting = Deno.env.get("${SECRET}") ?? "";
  const order = await req.json() as { name: string; items: { price: number; qty: number }[] };
  const total = order.items.reduce((sum, i) => sum + i.price * i.qty, 0);
  return Response.json({ message: greeting + ", " + order.name, items: order.items.length, total });
};
`;
const functionCode = (version = 0) => `${HANDLER}export default handler;\n// version ${version}\n`;
const BARE_CODE = `${HANDLER}export default { fetch: handler };\n`;

/** The body of call `i`, and the answer the handler must give it. */
function order(i: number): { body: string; expected: string } {
  const items = Array.from({ length: 5 }, (_, k) => ({ price: 1 + k, qty: 1 + ((i + k) % 3) }));
  const name = `caller ${i}`;
  const total = items.reduce((sum, it) => sum + it.price * it.qty, 0);
  return {
    body: JSON.stringify({ name, items }),
    expected: JSON.stringify({ message: `${SECRET_VALUE}, ${name}`, items: items.length, total }),
  };
}

type Caller = (i: number) => Promise<{ ms: number; ok: boolean }>;

/** A call of the public URL's route handler, as Next runs it: a real request from its own address. */
function routeCaller(app: App): Caller {
  const url = new URL(`/api/apps/${app.id}/functions/${NAME}`, "http://localhost:3000");
  const ctx = { params: Promise.resolve({ appId: app.id, name: NAME }) };
  return async (i) => {
    const { body, expected } = order(i);
    const started = performance.now();
    const req = new NextRequest(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...fromIp() },
      body,
    });
    const res = await publicRoute.POST(req, ctx);
    const text = await res.text();
    return { ms: performance.now() - started, ok: res.status === 200 && text === expected };
  };
}

/** A call of the bare server over HTTP (fetch: keep-alive connections, as a client would). */
function bareCaller(port: number): Caller {
  const url = `http://127.0.0.1:${port}/`;
  return async (i) => {
    const { body, expected } = order(i);
    const started = performance.now();
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
    const text = await res.text();
    return { ms: performance.now() - started, ok: res.status === 200 && text === expected };
  };
}

type Bare = { port: number; child: ChildProcess; firstAnswerMs: number; stop: () => Promise<void> };

/** `deno serve` of the same handler on a free loopback port, timed from its spawn to its first answer. */
async function startBare(dir: string): Promise<Bare> {
  const file = path.join(dir, "bare.ts");
  writeFileSync(file, BARE_CODE);
  const port = await freePort();
  const started = performance.now();
  const child = spawn(
    denoBinaryPath(),
    [
      "serve",
      "--no-config",
      "--no-lock",
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      `--allow-env=${SECRET}`,
      file,
    ],
    {
      cwd: dir,
      env: denoEnv(dir, { [SECRET]: SECRET_VALUE }),
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.on("data", (c) => (output += c));
  child.stderr.on("data", (c) => (output += c));
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  // Listening is printed once it serves; then its first answer.
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`deno serve did not start:\n${output}`)), 20_000);
    const check = () => {
      if (!output.includes("Listening")) return;
      clearTimeout(timer);
      resolve();
    };
    child.stdout.on("data", check);
    child.stderr.on("data", check);
    void exited.then(() => reject(new Error(`deno serve ended:\n${output}`)));
  });
  const first = await bareCaller(port)(0);
  if (!first.ok) throw new Error("the bare deno serve gave a wrong first answer");
  const firstAnswerMs = performance.now() - started;
  return {
    port,
    child,
    firstAnswerMs,
    stop: async () => {
      child.kill("SIGKILL");
      await exited;
    },
  };
}

/** `deno run` of an empty script, spawn to exit: the floor of any Deno process's start. */
async function emptyRun(dir: string): Promise<number> {
  const file = path.join(dir, "empty.js");
  writeFileSync(file, "");
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(denoBinaryPath(), ["run", "--no-config", "--no-lock", file], {
      cwd: dir,
      env: denoEnv(dir),
      stdio: "ignore",
    });
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`deno run exited with ${code}`)),
    );
  });
  return performance.now() - started;
}

/** A clean environment, as the runtime gives its processes (plus the bare server's secret). */
function denoEnv(dir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { DENO_DIR: path.join(dir, ".deno"), DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1", ...extra };
  return env as unknown as NodeJS.ProcessEnv;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

type Setup = { app: App; accountId: string; userId: string };

async function setUp(): Promise<Setup> {
  const builder = await createBuilder();
  const accountId = builder.account.accountId;
  const created = await createSpaceApp(accountId, "Bench functions");
  await saveSecrets(created, { secrets: [{ key: SECRET, value: SECRET_VALUE }] });
  await writeCode(created, accountId, 0);
  await publish(created);
  const app = (await findAppById(created.id))!;
  await deployFunction(app, NAME, builder.user.id);
  return { app, accountId, userId: builder.user.id };
}

/** The function's file in a new version of the app (as the chat writes it). */
async function writeCode(app: App, accountId: string, version: number) {
  await say(app, accountId, {
    user: "the function",
    answer: "Here it is.",
    changes: [{ type: "add_file", path: `functions/${NAME}.ts`, content: functionCode(version) }],
  });
}

const STEPS = ["measured", "bare", "empty", "statement", "roundTrip", "runtime"] as const;
type Which = (typeof STEPS)[number];

/**
 * Calls of each in turn, the order rotating (drift and the machine's load hit all alike): their
 * times, and how many answers were right.
 */
async function warm(callers: Record<Which, Caller>) {
  for (let i = 0; i < WARMUP; i++) for (const which of STEPS) await callers[which](i);
  const times = Object.fromEntries(STEPS.map((k) => [k, [] as number[]])) as Record<Which, number[]>;
  const right = Object.fromEntries(STEPS.map((k) => [k, 0])) as Record<Which, number>;
  for (let i = 0; i < CALLS; i++) {
    for (let k = 0; k < STEPS.length; k++) {
      const which = STEPS[(i + k) % STEPS.length]!;
      const r = await callers[which](i);
      times[which].push(r.ms);
      if (r.ok) right[which]++;
    }
  }
  return { times, right };
}

/**
 * The public call's steps alone, as lib/functions/public-call.ts runs them on a warm call: its
 * one statement (the address's point taken, then the app and the versions of the deployed code
 * and of the secrets this server already holds), and the runtime's call with the code and
 * secrets in hand; beside them a bare round trip to PostgreSQL (`select 1`).
 */
async function stepCallers(
  app: App,
): Promise<Pick<Record<Which, Caller>, "statement" | "roundTrip" | "runtime">> {
  const deployed = (await deployedCode(app.id, NAME))!;
  const secrets = await readSecretValues(app.id);
  const first = await reserveFunctionCallAndRead(functionCallSlot(app.id, randomIp()), app.id, NAME, {
    codeHash: "",
    secretsVersion: "",
  });
  const known = { codeHash: first.deployed!.codeHash!, secretsVersion: first.secrets!.version };
  const timed = async (work: () => Promise<boolean>) => {
    const started = performance.now();
    const ok = await work();
    return { ms: performance.now() - started, ok };
  };
  return {
    statement: () =>
      timed(async () => {
        const read = await reserveFunctionCallAndRead(
          functionCallSlot(app.id, randomIp()),
          app.id,
          NAME,
          known,
        );
        // A warm call's answer: granted, published, deployed, neither code nor secrets carried.
        return (
          read.allowed &&
          read.app?.status === "active" &&
          read.deployed?.code === null &&
          read.secrets?.sealed === null
        );
      }),
    roundTrip: () => timed(async () => (await pool().query("select 1 as one")).rows[0]?.one === 1),
    runtime: (i) =>
      timed(async () => {
        const { body, expected } = order(i);
        const answer = await callFunction({
          appId: app.id,
          name: deployed.fileName,
          code: deployed.code,
          secrets,
          request: { method: "POST", url: "/", headers: { "content-type": "application/json" }, body },
        });
        return answer.status === 200 && new TextDecoder().decode(answer.body) === expected;
      }),
  };
}

/**
 * An empty route handler through the same wrapper with the public URL's options, called like it
 * (a request with the same body from its own address), answering a fixed body: what any route
 * handler costs here before its own work.
 */
function emptyRouteCaller(app: App): Caller {
  const answer = new TextEncoder().encode("{}");
  const empty = route({ auth: "public", raw: true, cap: "functionCall" }, async () => new Response(answer));
  const url = new URL(`/api/apps/${app.id}/functions/${NAME}`, "http://localhost:3000");
  const ctx = { params: Promise.resolve({ appId: app.id, name: NAME }) };
  return async (i) => {
    const { body } = order(i);
    const started = performance.now();
    const req = new NextRequest(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...fromIp() },
      body,
    });
    const res = await empty(req, ctx);
    const text = await res.text();
    return { ms: performance.now() - started, ok: res.status === 200 && text === "{}" };
  };
}

async function burst(caller: Caller) {
  const started = performance.now();
  const results = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => caller(1000 + i)));
  return {
    totalMs: performance.now() - started,
    times: results.map((r) => r.ms),
    right: results.filter((r) => r.ok).length,
  };
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-functions-"));
  let bare: Bare | undefined;
  try {
    const s = await setUp();
    bare = await startBare(dir);
    const measured = routeCaller(s.app);
    const baseline = bareCaller(bare.port);
    log("");
    log(
      `Space app functions: a small function (a secret, a JSON body, a JSON answer), Deno ${denoVersion()}`,
    );

    const w = await warm({
      measured,
      bare: baseline,
      empty: emptyRouteCaller(s.app),
      ...(await stepCallers(s.app)),
    });
    const p50 = Object.fromEntries(STEPS.map((k) => [k, percentile(w.times[k], 50)])) as Record<
      Which,
      number
    >;
    const right = (k: Which) => `${w.right[k]}/${CALLS} answers right`;
    const ofBare = (x: number) => `${(x / p50.bare).toFixed(2)}× the bare server`;
    log(
      `warm call, ${CALLS} each (after ${WARMUP} of warm-up), one at a time, in turn with the steps below:`,
    );
    log(`  public URL route handler   ${stats(w.times.measured)}; ${right("measured")}`);
    log(`  bare deno serve (HTTP)     ${stats(w.times.bare)}; ${right("bare")}`);
    const ratio = p50.measured / p50.bare;
    log(
      `  route ÷ bare = ${ratio.toFixed(2)}× at p50, ` +
        `${(percentile(w.times.measured, 95) / percentile(w.times.bare, 95)).toFixed(2)}× at p95; ` +
        `${ratio <= WARM_GOAL ? "meets" : "ABOVE"} the goal (≤ ${WARM_GOAL}× at p50)`,
    );
    log("  where its time goes, each step alone (p50):");
    log(
      `    an empty route handler (the same wrapper, options and request; a fixed answer) ` +
        `${ms(p50.empty)}, ${ofBare(p50.empty)}; ${right("empty")}`,
    );
    log(
      `    the one statement (the point taken; the app, the code's and secrets' versions read) ` +
        `${ms(p50.statement)}; ${right("statement")}; a bare PostgreSQL round trip (select 1) ${ms(p50.roundTrip)}`,
    );
    log(
      `    the runtime's call (code and secrets in hand) ${ms(p50.runtime)}, ${ofBare(p50.runtime)}; ${right("runtime")}`,
    );
    // The point must be taken in PostgreSQL before the function runs: two round trips one after
    // the other (PostgreSQL, then the function's process) where the bare server has one.
    const callFloor = p50.empty + p50.roundTrip + p50.runtime;
    log(
      `    floor of a public call here (empty route + select 1 + the runtime's call): ${ms(callFloor)}, ${ofBare(callFloor)}`,
    );

    const cold: number[] = [];
    let coldRight = 0;
    for (let v = 1; v <= COLD; v++) {
      // A new deploy: the next call builds the new code's bundle and starts a new process.
      await writeCode(s.app, s.accountId, v);
      await deployFunction(s.app, NAME, s.userId);
      const r = await measured(v);
      cold.push(r.ms);
      if (r.ok) coldRight++;
    }
    const floor: number[] = [];
    for (let i = 0; i < COLD; i++) floor.push(await emptyRun(dir));
    const bareStarts = [bare.firstAnswerMs];
    for (let i = 1; i < Math.min(COLD, 5); i++) {
      const b = await startBare(dir);
      bareStarts.push(b.firstAnswerMs);
      await b.stop();
    }
    log(`cold start, ${COLD} times (the first call after a new deploy of changed code):`);
    log(`  public URL route handler   ${stats(cold)}; ${coldRight}/${COLD} answers right`);
    log(`  bare deno serve, spawn to first answer  ${stats(bareStarts)} (${bareStarts.length} starts)`);
    log(`  deno run of an empty script, to exit    ${stats(floor)}`);
    const coldP50 = percentile(cold, 50);
    log(
      `  cold ÷ empty deno run = ${(coldP50 / percentile(floor, 50)).toFixed(2)}× at p50; ` +
        `${coldP50 <= COLD_GOAL_MS ? "meets" : "ABOVE"} the goal (≤ ${COLD_GOAL_MS} ms)`,
    );

    // Warm again (the last cold call started the current process), then the bursts.
    await measured(0);
    const bm = await burst(measured);
    const bb = await burst(baseline);
    log(`${CONCURRENT} calls at once:`);
    log(
      `  public URL route handler   all in ${ms(bm.totalMs)}; per call ${stats(bm.times)}; ` +
        `${bm.right}/${CONCURRENT} answers right`,
    );
    log(
      `  bare deno serve (HTTP)     all in ${ms(bb.totalMs)}; per call ${stats(bb.times)}; ` +
        `${bb.right}/${CONCURRENT} answers right`,
    );
    log(`  route ÷ bare = ${(bm.totalMs / bb.totalMs).toFixed(2)}× the burst's time`);
  } finally {
    await bare?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

function denoVersion(): string {
  return execFileSync(denoBinaryPath(), ["--version"], { encoding: "utf8" }).split(/\s+/)[1] ?? "?";
}

withScratchDb("bench_functions", main)
  .then(() => process.exit(0))
  .catch((err) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  });
