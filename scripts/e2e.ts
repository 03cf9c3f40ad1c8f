import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { migrateDatabase } from "../db/migrate";
import { e2eModelResponder } from "../tests/e2e/support/model-responder";
import { startDemoSite } from "../tests/support/demo-site-server";
import { googleDriveServerEnv, startGoogleDriveServer } from "../tests/support/google-drive-server";
import { gumroadServerEnv, startGumroadServer } from "../tests/support/gumroad-server";
import { notionServerEnv, startNotionServer } from "../tests/support/notion-server";
import { startOidcServer } from "../tests/support/oidc-server";
import { openAiServerEnv, startOpenAiServer } from "../tests/support/openai-server";
import { startSmtpCapture } from "../tests/support/smtp-server";
import { startStripeForApp } from "../tests/support/stripe-for-app";
import { assertLocalDatabase } from "../tests/support/test-env";
import { CHROMIUM, ensureChromium } from "./ensure-chromium";
import { adminQuery, type LocalDb, startLocalPostgres } from "./local-db";

// npm run test:e2e - the production build, driven by Playwright as a person would.
//
//   1. an embedded PostgreSQL (.data/e2e-postgres, port 54349; or TEST_DATABASE_URL's server),
//      with a fresh, migrated `builder_e2e` database;
//   2. a real SMTP server (tests/support/smtp-server.ts) that the app sends mail to, and the
//      local OpenAI-compatible model server (tests/support/openai-server.ts, AI_BASE_URL) with
//      the responder of tests/e2e/support/model-responder.ts; a small static website for the web
//      scraper (tests/support/demo-site-server.ts, its URL in E2E_DEMO_SITE_URL for the specs);
//   3. `next build` (skipped when E2E_SKIP_BUILD=1 and a build exists), then our server (`scripts/server.ts`, Next's handler)
//      on port 3200 with NODE_ENV=production (the job worker runs inside it, as for users);
//   4. `playwright test` (extra arguments are passed on: `npm run test:e2e -- auth.spec.ts`).
//
// How specs read mail: Playwright runs specs in worker processes of its own, so no in-memory
// object can reach them. The SMTP capture writes every message as one JSON file into
// E2E_MAIL_DIR (.data/e2e-mail, emptied at each run; written then renamed, never half a file),
// and tests/e2e/support/mail.ts polls that directory. Files need no port, survive the run for
// debugging, and work with any number of Playwright workers.
//
// Everything started here is stopped again, on success, failure or Ctrl-C.

const ROOT = process.cwd();
const REPORT = path.join(ROOT, ".data/e2e-report.json");
const PORT = Number(process.env.E2E_PORT ?? 3200);
const PG_PORT = Number(process.env.E2E_PG_PORT ?? 54349);
const BASE_URL = `http://localhost:${PORT}`;
const DB_NAME = "builder_e2e";
const MAIL_DIR = path.join(ROOT, ".data/e2e-mail");
const SERVER_LOG = path.join(ROOT, ".data/e2e-server.log");
// Uploads of this run only (not the dev server's .data/uploads), emptied at each run.
const STORAGE_DIR = path.join(ROOT, ".data/e2e-uploads");

const cleanups: Array<() => Promise<unknown> | unknown> = [];
let tearingDown: Promise<void> | undefined;

function teardown(): Promise<void> {
  tearingDown ??= (async () => {
    for (const fn of cleanups.reverse()) {
      try {
        await fn();
      } catch (err) {
        console.error("[e2e] cleanup failed:", err);
      }
    }
  })();
  return tearingDown;
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    console.error(`[e2e] ${signal}: stopping everything`);
    void teardown().then(() => process.exit(130));
  });
}

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)}s`;
const log = (msg: string) => console.log(`[e2e] ${msg}`);

async function main(): Promise<number> {
  const missing = ensureChromium();
  if (missing) throw new Error(missing);

  // 1. Database
  let t = Date.now();
  const adminUrl = await startDatabase();
  assertLocalDatabase(adminUrl);
  await adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`);
  await adminQuery(adminUrl, `CREATE DATABASE "${DB_NAME}"`);
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${DB_NAME}`;
  const databaseUrl = dbUrl.toString();
  await migrateDatabase(databaseUrl);
  log(`database ${DB_NAME} ready and migrated (${seconds(t)})`);

  // 2. Mail
  fs.rmSync(MAIL_DIR, { recursive: true, force: true });
  const smtp = await startSmtpCapture({ mailDir: MAIL_DIR });
  cleanups.push(() => smtp.close());
  log(`SMTP capture on ${smtp.url}, mails in ${path.relative(ROOT, MAIL_DIR)}/`);

  // 3. Google sign-in: a local OpenID Connect provider stands in for Google.
  const oidc = await startOidcServer();
  cleanups.push(() => oidc.close());
  log(`OIDC provider (Google) on ${oidc.issuer}`);

  // Payments: the local Stripe double (REST API, hosted checkout page, signed webhooks).
  const stripe = await startStripeForApp(BASE_URL);
  cleanups.push(() => stripe.server.close());
  log(`Stripe double on ${stripe.server.url}`);

  // Data source connectors: local servers speaking Notion's and Google's OAuth and APIs.
  const notion = await startNotionServer();
  cleanups.push(() => notion.close());
  const drive = await startGoogleDriveServer();
  cleanups.push(() => drive.close());
  log(`Notion double on ${notion.url}, Google Drive double on ${drive.url}`);

  // Paid memberships: a local server speaking Gumroad's API, whose product pages play the buyer.
  const gumroad = await startGumroadServer();
  cleanups.push(() => gumroad.close());
  log(`Gumroad double on ${gumroad.url}`);

  // A website for the web scraper. It is on 127.0.0.1, which the scraper refuses like any private
  // address: SCRAPER_ALLOW_PRIVATE_HOSTS admits this one host:port, so other local ports stay
  // refused. Its answers come a little late, as over a network, so Syncing... can be seen.
  const site = await startDemoSite({ latencyMs: 300 });
  cleanups.push(() => site.close());
  log(`demo website on ${site.url}`);

  // The model provider: the app's AI SDK calls reach a local server over HTTP, as they would a
  // real provider. Specs script failures by what they type (see model-responder.ts).
  const model = await startOpenAiServer({ responder: e2eModelResponder, record: false });
  cleanups.push(() => model.close());
  log(`model server (OpenAI-compatible) on ${model.url}`);

  fs.rmSync(STORAGE_DIR, { recursive: true, force: true });

  const appEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(PORT),
    APP_URL: BASE_URL,
    AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123456789",
    DATABASE_URL: databaseUrl,
    SMTP_URL: smtp.url,
    MAIL_FROM: "Builder <no-reply@example.com>",
    GOOGLE_CLIENT_ID: oidc.clientId,
    GOOGLE_CLIENT_SECRET: oidc.clientSecret,
    GOOGLE_ISSUER: oidc.issuer,
    ...stripe.env,
    ...notionServerEnv(notion),
    ...googleDriveServerEnv(drive),
    ...gumroadServerEnv(gumroad),
    ...openAiServerEnv(model),
    SCRAPER_ALLOW_PRIVATE_HOSTS: site.hostPort,
    STORAGE_DIR,
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    NEXT_TELEMETRY_DISABLED: "1",
  };

  // 4. Build and start
  const hasBuild = fs.existsSync(path.join(ROOT, ".next/BUILD_ID"));
  if (process.env.E2E_SKIP_BUILD === "1" && hasBuild) {
    log("E2E_SKIP_BUILD=1: using the existing .next build");
  } else {
    t = Date.now();
    // Next's incremental type-check state has been seen to miss edits to imported files and
    // fail on code that no longer exists; a build from here always type-checks afresh.
    fs.rmSync(path.join(ROOT, ".next/cache/.tsbuildinfo"), { force: true });
    log("next build ...");
    const code = await run(process.execPath, [nextBin(), "build"], { env: appEnv, stdio: "inherit" });
    if (code !== 0) throw new Error(`next build failed (exit ${code})`);
    log(`next build done (${seconds(t)})`);
  }

  t = Date.now();
  fs.mkdirSync(path.dirname(SERVER_LOG), { recursive: true });
  const serverLog = fs.openSync(SERVER_LOG, "w");
  const server = startProcess("server", process.execPath, [tsxBin(), "scripts/server.ts"], {
    env: appEnv,
    stdio: ["ignore", serverLog, serverLog],
  });
  await waitForServer(server);
  log(`app answering on ${BASE_URL} (${seconds(t)}), server log in ${path.relative(ROOT, SERVER_LOG)}`);

  // 5. Playwright
  t = Date.now();
  fs.rmSync(REPORT, { force: true });
  const code = await run(
    process.execPath,
    [playwrightBin(), "test", "--config", "playwright.config.ts", ...process.argv.slice(2)],
    {
      env: {
        ...process.env,
        E2E_BASE_URL: BASE_URL,
        E2E_MAIL_DIR: MAIL_DIR,
        E2E_OIDC_ISSUER: oidc.issuer,
        E2E_DEMO_SITE_URL: site.url,
        DATABASE_URL: databaseUrl,
        CHROMIUM_PATH: CHROMIUM,
        PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1",
      },
      stdio: "inherit",
    },
  );
  log(`playwright finished with exit ${code} (${seconds(t)})`);
  if (code !== 0) printServerLogTail();
  printUnexpectedTests();
  return code;
}

async function startDatabase(): Promise<string> {
  if (process.env.TEST_DATABASE_URL) return process.env.TEST_DATABASE_URL;
  const local: LocalDb = await startLocalPostgres(path.join(ROOT, ".data/e2e-postgres"), PG_PORT);
  cleanups.push(() => local.stop());
  return local.adminUrl;
}

const nextBin = () => path.join(ROOT, "node_modules/next/dist/bin/next");
const tsxBin = () => path.join(ROOT, "node_modules/tsx/dist/cli.mjs");
const playwrightBin = () => path.join(ROOT, "node_modules/@playwright/test/cli.js");

type SpawnOpts = { env: NodeJS.ProcessEnv; stdio: "inherit" | ["ignore", number, number] };

/** Runs a command to completion; resolves with its exit code. */
function run(cmd: string, args: string[], opts: SpawnOpts): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...opts, cwd: ROOT, detached: true });
    const stop = () => killGroup(child);
    cleanups.push(stop);
    child.on("error", reject);
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Starts a long-running process in its own process group, stopped (with its children) at teardown. */
function startProcess(name: string, cmd: string, args: string[], opts: SpawnOpts): ChildProcess {
  const child = spawn(cmd, args, { ...opts, cwd: ROOT, detached: true });
  child.on("exit", (code, signal) => {
    if (!tearingDown) console.error(`[e2e] ${name} exited early (code ${code}, signal ${signal})`);
  });
  cleanups.push(() => killGroup(child));
  return child;
}

async function killGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {}
  }, 5000);
  await exited;
  clearTimeout(timer);
}

async function waitForServer(server: ChildProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) {
      printServerLogTail();
      throw new Error(`the server exited with code ${server.exitCode} before answering`);
    }
    try {
      const res = await fetch(`${BASE_URL}/login`, { redirect: "manual", signal: AbortSignal.timeout(5000) });
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  printServerLogTail();
  throw new Error(`${BASE_URL} did not answer within ${timeoutMs / 1000}s`);
}

function printServerLogTail(lines = 60): void {
  if (!fs.existsSync(SERVER_LOG)) return;
  const tail = fs.readFileSync(SERVER_LOG, "utf8").trimEnd().split("\n").slice(-lines);
  if (!tail.join("").trim()) return;
  console.error(`[e2e] last ${tail.length} lines of ${path.relative(ROOT, SERVER_LOG)}:`);
  for (const line of tail) console.error(`  ${line}`);
}

type ReportSuite = { specs?: ReportSpec[]; suites?: ReportSuite[] };
type ReportSpec = {
  title: string;
  file: string;
  line: number;
  tests: { status: string; results: { error?: { message?: string } }[] }[];
};

/**
 * The failed and flaky tests again, last: Playwright lists them amid the progress lines, far
 * above the server log, where a log that keeps only its end would lose them.
 */
function printUnexpectedTests(): void {
  if (!fs.existsSync(REPORT)) return;
  const walk = (s: ReportSuite): ReportSpec[] => [...(s.specs ?? []), ...(s.suites ?? []).flatMap(walk)];
  let specs: ReportSpec[];
  try {
    specs = (JSON.parse(fs.readFileSync(REPORT, "utf8")) as ReportSuite).suites?.flatMap(walk) ?? [];
  } catch {
    return;
  }
  for (const spec of specs) {
    const test = spec.tests.find((t) => t.status === "unexpected" || t.status === "flaky");
    if (!test) continue;
    const error = test.results.find((r) => r.error)?.error?.message ?? "";
    const firstLines = stripVTControlCharacters(error).split("\n").slice(0, 6);
    console.error(
      `[e2e] ${test.status === "flaky" ? "FLAKY" : "FAILED"} ${spec.file}:${spec.line} ${spec.title}`,
    );
    for (const line of firstLines) console.error(`    ${line}`);
  }
}

main()
  .catch((err: unknown) => {
    console.error(`[e2e] ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  })
  .then(async (code) => {
    await teardown();
    process.exit(code);
  });
