import fs from "node:fs";
import { sql } from "drizzle-orm";
import { closeDb, db } from "@/db/client";
import { runDueJobs } from "@/lib/jobs/worker";
import { boss, stopBoss } from "@/lib/queue/boss";

// A worker process for the memory benchmark (bench/context.ts), started as `npm run worker` starts
// one (node --conditions=react-server with tsx's loader): it loads the worker's modules, opens its
// database pool and queue, says how much memory it holds idle, runs the jobs that are due (the
// benchmark queued one ingestion of the big CSV) through the worker's handler, and says its peak.
// Reads its own /proc/self/status: VmHWM is the kernel's high-water mark of the resident set, so
// no peak between two samples is missed.

function memory() {
  const status = fs.readFileSync("/proc/self/status", "utf8");
  const kb = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))?.[1] ?? 0);
  return { rssBytes: kb("VmRSS") * 1024, peakBytes: kb("VmHWM") * 1024 };
}

const report = (phase: string, extra: Record<string, unknown> = {}) =>
  console.log(JSON.stringify({ phase, ...memory(), ...extra }));

async function main() {
  await boss();
  await db().execute(sql`select 1`);
  report("idle");
  const started = performance.now();
  const ran = await runDueJobs();
  report("done", { ran, ms: performance.now() - started });
  await stopBoss();
  await closeDb();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
