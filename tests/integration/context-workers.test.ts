import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import * as ingestFileRoute from "@/app/api/context/ingest/file/route";
import * as ingestTextRoute from "@/app/api/context/ingest/text/route";
import { db } from "@/db/client";
import { QUEUES } from "@/db/job-queues";
import { insertApp } from "@/db/queries/apps";
import { monthlyContextUsage } from "@/db/queries/context-usage";
import { contextItems } from "@/db/schema";
import { chunkLines } from "@/lib/context/chunk-text";
import { pruneExpired } from "@/lib/jobs/prune";
import { messages } from "@/lib/messages";
import { boss } from "@/lib/queue/boss";
import { queueContextIngest } from "@/lib/queue/enqueue-context";
import { createBuilder } from "../support/factories";
import { call } from "../support/http";
import { send } from "../support/uploads-client";

// The job worker as its own process (`npm run worker`), as production runs it: a worker killed
// with SIGKILL mid-ingestion leaves its job to another worker, which finishes it (pg-boss's
// heartbeat, shortened here by JOBS_HEARTBEAT_SECONDS and JOBS_SUPERVISE_SECONDS); two workers on
// one queue never run a job twice; an item whose job is gone does not stay Pending for ever.
const STORAGE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "context-workers-test-"));
process.env.STORAGE_DIR = STORAGE_DIR;
afterAll(() => fs.rmSync(STORAGE_DIR, { recursive: true, force: true }));

const HEARTBEAT_SECONDS = 10; // pg-boss's floor

type Worker = { child: ChildProcess; output: string[] };
const workers: Worker[] = [];

/** `npm run worker` (tsx with the react-server condition), on this test's database. */
async function startWorker(): Promise<Worker> {
  const child = spawn(
    process.execPath,
    ["node_modules/tsx/dist/cli.mjs", "--conditions=react-server", "scripts/worker.ts"],
    {
      env: {
        ...process.env,
        JOBS_HEARTBEAT_SECONDS: String(HEARTBEAT_SECONDS),
        JOBS_SUPERVISE_SECONDS: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group: tsx runs the script in a child process, and a kill must reach both.
      detached: true,
    },
  );
  const worker = { child, output: [] as string[] };
  workers.push(worker);
  child.stdout!.on("data", (d) => worker.output.push(String(d)));
  child.stderr!.on("data", (d) => worker.output.push(String(d)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`worker did not start:\n${worker.output.join("")}`)),
      60_000,
    );
    const check = () => {
      if (worker.output.join("").includes("Worker running")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited (${code}):\n${worker.output.join("")}`));
    });
  });
  return worker;
}

async function stopWorker(w: Worker, signal: NodeJS.Signals) {
  if (w.child.exitCode !== null || w.child.signalCode !== null) return;
  const exited = new Promise((resolve) => w.child.once("exit", resolve));
  try {
    process.kill(-w.child.pid!, signal);
  } catch {
    return; // already gone
  }
  await exited;
}

afterEach(async () => {
  for (const w of workers.splice(0)) await stopWorker(w, "SIGKILL");
});
// In their own process groups, the workers would outlive a test run that is itself stopped.
process.once("exit", () => {
  for (const w of workers) {
    try {
      process.kill(-w.child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  }
});

const statusOf = async (id: string) =>
  (await db().select({ status: contextItems.status }).from(contextItems).where(eq(contextItems.id, id)))[0]
    ?.status;

async function waitFor<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const count = async (table: "context_rows" | "context_chunks", itemId: string) =>
  Number(
    (
      await db().execute<{ n: string }>(
        sql`select count(*) as n from ${sql.identifier(table)} where item_id = ${itemId}`,
      )
    ).rows[0]!.n,
  );

const ROWS = 100_000;
const csvLine = (i: number) =>
  `SKU-${i},Product ${i},${["Tea", "Coffee"][i % 2]},"Described at some length, row ${i}"`;
const chunkLine = (i: number) =>
  `sku: SKU-${i}; name: Product ${i}; category: ${["Tea", "Coffee"][i % 2]}; description: Described at some length, row ${i}`;

describe("workers as processes", () => {
  it("a worker killed with SIGKILL while an item is Syncing...: another worker picks the job up and it ends Synced, once", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await insertApp({ ownerAccountId: b.account.accountId, header: "Crash app" });
    const first = await startWorker();

    const csv = `sku,name,category,description\n${Array.from({ length: ROWS }, (_, i) => csvLine(i)).join("\n")}\n`;
    const res = await send(ingestFileRoute.POST, {
      method: "POST",
      path: `/api/context/ingest/file?appId=${app.id}&name=products.csv`,
      params: {},
      token: b.token,
      body: new TextEncoder().encode(csv),
    });
    expect(res.status).toBe(200);
    const id = (res.json as unknown as { contextItemId: string }).contextItemId;

    expect(
      await waitFor(
        () => statusOf(id),
        (s) => s === "running",
        30_000,
      ),
    ).toBe("running");
    // Well into its transaction (ingesting 100k rows takes seconds), the worker dies.
    await new Promise((r) => setTimeout(r, 1000));
    await stopWorker(first, "SIGKILL");
    expect(await statusOf(id)).toBe("running");
    expect(await count("context_rows", id)).toBe(0);

    await startWorker();
    // A heartbeat, a supervision pass, the retry's backoff (5 to 10 s) and the ingestion itself.
    expect(
      await waitFor(
        () => statusOf(id),
        (s) => s === "synced",
        90_000,
      ),
    ).toBe("synced");
    expect(await count("context_rows", id)).toBe(ROWS);
    const expected = chunkLines(Array.from({ length: ROWS }, (_, i) => chunkLine(i)));
    expect(await count("context_chunks", id)).toBe(expected.length);
    // Charged to the month once, though it ran twice.
    expect(await monthlyContextUsage(b.account.accountId)).toBe(Buffer.byteLength(csv));
    const jobs = await db().execute<{ state: string; retry_count: number }>(
      sql`select state, retry_count from pgboss.job where name = ${QUEUES.contextIngest} and data->>'itemId' = ${id}`,
    );
    expect(jobs.rows).toEqual([{ state: "completed", retry_count: 1 }]);
  }, 180_000);

  it("two workers on one queue never run a job twice", async () => {
    const b = await createBuilder({ plan: "moon" });
    const app = await insertApp({ ownerAccountId: b.account.accountId, header: "Busy app" });
    await Promise.all([startWorker(), startWorker()]);

    // Every run of a job marks its item Syncing... once: the announcements count the runs.
    const listener = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await listener.connect();
    const runs = new Map<string, number>();
    listener.on("notification", (n) => {
      const change = JSON.parse(n.payload ?? "{}") as { id: string; status: string };
      if (change.status === "running") runs.set(change.id, (runs.get(change.id) ?? 0) + 1);
    });
    await listener.query("LISTEN context_items");
    try {
      const N = 40;
      const answers = await Promise.all(
        Array.from({ length: N }, (_, i) =>
          call<{ contextItemId: string }>(ingestTextRoute.POST, {
            path: `/api/context/ingest/text?appId=${app.id}`,
            token: b.token,
            body: { context: `Note ${i}: ${"the shop opens at nine. ".repeat(20 + i)}` },
          }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(N).fill(200));
      const ids = answers.map((a) => a.json.contextItemId);
      const synced = async () =>
        Number(
          (
            await db().execute<{ n: string }>(
              sql`select count(*) as n from context_items where app_id = ${app.id} and status = 'synced'`,
            )
          ).rows[0]!.n,
        );
      expect(await waitFor(synced, (n) => n === N, 60_000)).toBe(N);
      // The last announcements may still be on their way.
      await new Promise((r) => setTimeout(r, 500));
      expect(ids.map((id) => runs.get(id) ?? 0)).toEqual(Array(N).fill(1));
    } finally {
      await listener.end();
    }
  }, 120_000);
});

describe("an item no job will finish", () => {
  it("ends in Error after a while when its job is gone or failed for good; one with a live job is left alone", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await insertApp({ ownerAccountId: b.account.accountId, header: "Orphans" });
    const add = async (status: "pending" | "running" | "unsynced") =>
      (
        await db()
          .insert(contextItems)
          .values({
            appId: app.id,
            name: status,
            type: "txt",
            source: "local files",
            status,
            content: "text",
          })
          .returning()
      )[0]!;
    const age = (id: string, minutes: number) =>
      db().execute(
        sql`update context_items set status_changed_at = now() - make_interval(mins => ${minutes}) where id = ${id}`,
      );

    // Never queued (the server stopped between the two steps).
    const neverQueued = await add("pending");
    // Its worker died on the last attempt: the job failed for good while the item said Syncing....
    const lastAttempt = await add("running");
    const b0 = await boss();
    // First in line whatever else waits in the queue.
    await b0.send(QUEUES.contextIngest, { itemId: lastAttempt.id }, { retryLimit: 0, priority: 100 });
    const [job] = await b0.fetch(QUEUES.contextIngest);
    expect(job?.data).toEqual({ itemId: lastAttempt.id });
    await b0.fail(QUEUES.contextIngest, job!.id);
    // Waiting for its worker: a queued job.
    const queued = await add("pending");
    await queueContextIngest(queued.id);
    // Just saved: its job is about to be queued.
    const fresh = await add("unsynced");

    for (const i of [neverQueued, lastAttempt, queued]) await age(i.id, 10);
    const pruned = await pruneExpired();
    expect(pruned.orphanedContextItems).toBe(2);
    const items = await db().select().from(contextItems).where(eq(contextItems.appId, app.id));
    const byId = new Map(items.map((i) => [i.id, i]));
    for (const i of [neverQueued, lastAttempt]) {
      expect(byId.get(i.id)).toMatchObject({ status: "error", error: messages.contextIngestFailed });
    }
    expect(byId.get(queued.id)!.status).toBe("pending");
    expect(byId.get(fresh.id)!.status).toBe("unsynced");
  });
});
