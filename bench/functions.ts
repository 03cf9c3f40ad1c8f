import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import * as publicRoute from "@/app/api/apps/[appId]/functions/[name]/route";
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
//     requests (the wrapper, the per-address limit, the app and deployed code read, the app's
//     secrets decrypted, the call to its warm Deno process), against the same handler served by a
//     bare `deno serve` on a loopback port, called over HTTP from this process with the same body
//     (goal: ≤ 2× its p50);
//  2. a cold start: the first call after the code changed (a new deploy: the bundle built, a new
//     Deno process started and its first answer), repeated, against `deno run` of an empty script
//     to its exit (Deno's own floor) and the bare `deno serve` from its spawn to its first answer
//     (goal: ≤ 500 ms at p50);
//     Beside it, where the route's time goes: its steps run alone (the statement that takes the
//     per-address point and reads the app, the code's version and the secrets' version; the
//     runtime's call with the code and secrets already read), and the floor of any route handler
//     here: an empty one (the same wrapper, options and request, answering a fixed body);
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

type Which = "measured" | "bare" | "empty";

/** Calls of each in turn, the order rotating (drift hits all alike): their times, and how many answers were right. */
async function warm(callers: Record<Which, Caller>) {
  const order: Which[] = ["measured", "bare", "empty"];
  for (let i = 0; i < WARMUP; i++) for (const which of order) await callers[which](i);
  const times: Record<Which, number[]> = { measured: [], bare: [], empty: [] };
  const right: Record<Which, number> = { measured: 0, bare: 0, empty: 0 };
  for (let i = 0; i < CALLS; i++) {
    for (let k = 0; k < order.length; k++) {
      const which = order[(i + k) % order.length]!;
      const r = await callers[which](i);
      times[which].push(r.ms);
      if (r.ok) right[which]++;
    }
  }
  return { times, right };
}

/** The public call's steps one by one, as lib/functions/public-call.ts runs them. */
async function parts(app: App, bareP50: number) {
  const t = { statement: [] as number[], run: [] as number[] };
  const deployed = (await deployedCode(app.id, NAME))!;
  const secrets = await readSecretValues(app.id);
  // The versions this server holds after the warm calls: the statement answers neither code nor secrets.
  const first = await reserveFunctionCallAndRead(functionCallSlot(app.id, randomIp()), app.id, NAME, {
    codeHash: "",
    secretsVersion: "",
  });
  const known = { codeHash: first.deployed!.codeHash!, secretsVersion: first.secrets!.version };
  let right = 0;
  for (let i = 0; i < CALLS; i++) {
    let started = performance.now();
    const read = await reserveFunctionCallAndRead(functionCallSlot(app.id, randomIp()), app.id, NAME, known);
    t.statement.push(performance.now() - started);
    if (!read.allowed || read.deployed?.code !== null || read.secrets?.sealed !== null)
      throw new Error("the statement did not answer as for a warm call");
    started = performance.now();
    const { body, expected } = order(i);
    const answer = await callFunction({
      appId: app.id,
      name: deployed.fileName,
      code: deployed.code,
      secrets,
      request: { method: "POST", url: "/", headers: { "content-type": "application/json" }, body },
    });
    t.run.push(performance.now() - started);
    if (answer.status === 200 && new TextDecoder().decode(answer.body) === expected) right++;
  }
  const p50 = (xs: number[]) => ms(percentile(xs, 50));
  log(
    `  the route's steps alone, p50: the point taken and the app, code and secrets' versions read ` +
      `(one statement) ${p50(t.statement)}, the runtime's call ${p50(t.run)} ` +
      `(${(percentile(t.run, 50) / bareP50).toFixed(2)}× the bare server's p50; ${right}/${CALLS} answers right)`,
  );
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

    const w = await warm({ measured, bare: baseline, empty: emptyRouteCaller(s.app) });
    const [mp50, bp50, ep50] = (["measured", "bare", "empty"] as const).map((k) =>
      percentile(w.times[k], 50),
    );
    log(`warm call, ${CALLS} each (after ${WARMUP} of warm-up), one at a time, in turn:`);
    log(
      `  public URL route handler   ${stats(w.times.measured)}; ${w.right.measured}/${CALLS} answers right`,
    );
    log(`  bare deno serve (HTTP)     ${stats(w.times.bare)}; ${w.right.bare}/${CALLS} answers right`);
    log(
      `  an empty route handler     ${stats(w.times.empty)}; ${w.right.empty}/${CALLS} answers right ` +
        `(the same wrapper and request, a fixed answer: ${(ep50! / bp50!).toFixed(2)}× the bare server)`,
    );
    const ratio = mp50! / bp50!;
    log(
      `  route ÷ bare = ${ratio.toFixed(2)}× at p50, ` +
        `${(percentile(w.times.measured, 95) / percentile(w.times.bare, 95)).toFixed(2)}× at p95; ` +
        `${ratio <= WARM_GOAL ? "meets" : "ABOVE"} the goal (≤ ${WARM_GOAL}× at p50)`,
    );

    await parts(s.app, bp50!);

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
