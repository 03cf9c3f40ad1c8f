import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import Papa from "papaparse";
import { closeDb, db } from "@/db/client";
import { findContextItem } from "@/db/queries/context";
import { ingestFile } from "@/lib/context/files";
import { ingestText } from "@/lib/context/items";
import { findMatchingRows, type RowCondition } from "@/lib/context/retrieve";
import { runDueJobs } from "@/lib/jobs/worker";
import { stopBoss } from "@/lib/queue/boss";
import { BENCH_OWNER, newApp, uploadOf } from "./context-app";
import { makeReportPdf, writeProductsCsv } from "./context-fixtures";
import {
  type CorpusApp,
  explainSearch,
  fillCorpus,
  fillRows,
  makeQueries,
  pendingPages,
  type RowsApp,
  type Timing,
  timeRetrieval,
  writeMoreChunks,
} from "./context-retrieval";
import { median, percentile } from "./stats";

// The data-source benchmarks of `npm run bench`, each against a baseline measured in
// this run, figures only, never pass/fail:
//  1. ingestion of an 11 MB CSV of 100k rows and of a 300-page PDF, from the upload to Synced
//     (lib/context/files.ts ingestFile with the file streamed as a request body, then the job
//     through the worker's own handler, runDueJobs), as a ratio to parsing the same file alone
//     (papaparse streaming it; unpdf's extractText); goal ≤ 3×;
//  2. peak memory of a worker process ingesting the CSV, against the same process idle; goal:
//     flat (streaming), far from 10× the file's size;
//  3. retrieval of the top 10 over an app of 1,000,000 chunks, p50 and p99; goal p99 ≤ 20 ms;
//     baseline: the same queries over an app of 10,000 chunks in the same table; then again after
//     20,000 more chunks were written into it (the indexes' pending lists not yet merged);
//  4. smart items filtering (findMatchingRows, 50 rows) over an app of 1,000,000 CSV rows (10
//     lists of 100k), p50 and p99 per kind of condition; baseline: an app of 10,000 rows.
// Started by bench/run.ts as a child process with --conditions=react-server (the app's
// server-only modules load only there), on the run's own database (DATABASE_URL); the files it
// makes and stores live in a temporary directory removed at the end.
//
// BENCH_INGEST_ROUNDS (default 3), BENCH_CHUNKS (default 1000000), BENCH_QUERIES (default 200),
// BENCH_FILTER_RUNS (default 50), BENCH_CONTEXT=ingestion,memory,retrieval,filter (comma-separated;
// default all) runs only those parts.

const ROUNDS = Number(process.env.BENCH_INGEST_ROUNDS ?? 3);
const BIG_CHUNKS = Number(process.env.BENCH_CHUNKS ?? 1_000_000);
const SMALL_CHUNKS = 10_000;
/** Chunks written into the big app after the first measurement, before the second. */
const WRITTEN_AFTER = 20_000;
const WRITTEN_ITEMS = 4;
const QUERY_COUNT = Number(process.env.BENCH_QUERIES ?? 200);
const FILTER_RUNS = Number(process.env.BENCH_FILTER_RUNS ?? 50);
const PARTS = ["ingestion", "memory", "retrieval", "filter"] as const;
const ONLY_PARTS = process.env.BENCH_CONTEXT?.split(",")
  .map((p) => p.trim())
  .filter(Boolean);
const wants = (part: (typeof PARTS)[number]) => !ONLY_PARTS?.length || ONLY_PARTS.includes(part);
const CSV_ROWS = 100_000;
const PDF_PAGES = 300;
const INGEST_GOAL = 3;
const P99_GOAL_MS = 20;
const MEMORY_GOAL = 10;

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), "bench-context-"));
// Uploaded files go to the disk driver under the temporary directory (read before lib/env is).
process.env.STORAGE_DIR = path.join(TMP, "storage");
delete process.env.S3_BUCKET;

const log = (line = "") => console.log(line);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const ms = (x: number) => `${x.toFixed(0)} ms`;

/** Upload to Synced: the service the route calls, then every due job through the worker's handler. */
async function ingestToSynced(file: string, name: string) {
  const app = await newApp(`ingest ${name}`);
  const started = performance.now();
  const { contextItemId } = await ingestFile(app, BENCH_OWNER, name, uploadOf(file));
  await runDueJobs();
  const elapsed = performance.now() - started;
  const item = await findContextItem(contextItemId);
  if (item?.status !== "synced") {
    throw new Error(`${name} ended ${item?.status ?? "deleted"}${item?.error ? `: ${item.error}` : ""}`);
  }
  const { rows } = await db().execute<{ chunks: number; rows: number }>(sql`
    select (select count(*) from context_chunks where item_id = ${contextItemId})::int as chunks,
           (select count(*) from context_rows where item_id = ${contextItemId})::int as rows`);
  return { ms: elapsed, chunks: rows[0]!.chunks, rows: rows[0]!.rows };
}

/** Parsing alone: papaparse streaming the file, header row on, every row handed over. */
function parseCsvAlone(file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let rows = 0;
    Papa.parse<Record<string, string>>(fs.createReadStream(file, "utf8") as unknown as File, {
      header: true,
      skipEmptyLines: "greedy",
      step: () => {
        rows++;
      },
      complete: () => resolve(rows),
      error: (err: Error) => reject(err),
    });
  });
}

/** Parsing alone: unpdf's text of every page, merged, from the file's bytes. */
async function parsePdfAlone(file: string): Promise<number> {
  const { extractText } = await import("unpdf");
  const { text } = await extractText(new Uint8Array(fs.readFileSync(file)), { mergePages: true });
  return text.length;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

async function ingestionBench(csv: string, pdf: string) {
  // Warm-up, not counted: the queue's connection, the parsers' modules, the first queries.
  const warm = await newApp("warm-up");
  await ingestText(warm, BENCH_OWNER, "Warm-up text.");
  await runDueJobs();
  const smallCsv = path.join(TMP, "small.csv");
  await writeProductsCsv(smallCsv, 200, 9);
  await ingestToSynced(smallCsv, "small.csv");
  const smallPdf = path.join(TMP, "small.pdf");
  fs.writeFileSync(smallPdf, await makeReportPdf(2, 9));
  await ingestToSynced(smallPdf, "small.pdf");
  await parseCsvAlone(smallCsv);
  await parsePdfAlone(smallPdf);

  const cases = [
    { label: "CSV", file: csv, name: "products.csv", parse: () => parseCsvAlone(csv) },
    { label: "PDF", file: pdf, name: "report.pdf", parse: () => parsePdfAlone(pdf) },
  ];
  const lines: string[] = [];
  for (const c of cases) {
    const ratios: number[] = [];
    const ingest: number[] = [];
    const parse: number[] = [];
    let detail = "";
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate the order so drift (caches, autovacuum, other work) hits both alike.
      const measure = () => timed(() => ingestToSynced(c.file, c.name));
      const base = () => timed(c.parse);
      const [m, b] =
        round % 2 === 0
          ? [await measure(), await base()]
          : await base().then(async (x) => [await measure(), x] as const);
      ingest.push(m.ms);
      parse.push(b.ms);
      ratios.push(m.ms / b.ms);
      detail = `${m.value.chunks.toLocaleString("en")} chunks, ${m.value.rows.toLocaleString("en")} rows`;
      log(
        `  ${c.label} round ${round + 1}: upload to Synced ${ms(m.ms)}, parsing alone ${ms(b.ms)}, ${(m.ms / b.ms).toFixed(2)}×`,
      );
    }
    const ratio = median(ingest) / median(parse);
    lines.push(
      `${c.label} ${mb(fs.statSync(c.file).size)} (${detail}): upload to Synced ${ms(median(ingest))} ÷ ` +
        `parsing alone ${ms(median(parse))} = ${ratio.toFixed(2)}× (median of ${ROUNDS} rounds; ` +
        `rounds: ${ratios.map((r) => r.toFixed(2)).join(", ")}) — ` +
        (ratio <= INGEST_GOAL ? `meets the goal (≤ ${INGEST_GOAL}×)` : `ABOVE the goal (≤ ${INGEST_GOAL}×)`),
    );
  }
  return lines;
}

type MemoryReport = { phase: string; rssBytes: number; peakBytes: number; ms?: number; ran?: number };
type WorkerMemory = { size: number; idle: number; peak: number; ms: number };

/**
 * A worker process of its own ingests a CSV: the upload is stored and queued here, the child
 * (bench/context-memory-child.ts, started like `npm run worker`) runs the job and reports its
 * resident memory idle (modules loaded, pool and queue open) and its peak (VmHWM) at the end.
 */
async function workerIngesting(csv: string): Promise<WorkerMemory> {
  const app = await newApp("memory");
  const { contextItemId } = await ingestFile(app, BENCH_OWNER, path.basename(csv), uploadOf(csv));
  const reports: MemoryReport[] = [];
  let stderr = "";
  await new Promise<void>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", path.join("bench", "context-memory-child.ts")],
      { stdio: ["ignore", "pipe", "pipe"], env: process.env },
    );
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      for (let nl = out.indexOf("\n"); nl >= 0; nl = out.indexOf("\n")) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        if (line.startsWith("{")) reports.push(JSON.parse(line) as MemoryReport);
      }
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`worker exited ${code}\n${stderr}`)),
    );
  });
  const idle = reports.find((r) => r.phase === "idle");
  const done = reports.find((r) => r.phase === "done");
  if (!idle || !done) throw new Error(`the worker did not report\n${stderr}`);
  const item = await findContextItem(contextItemId);
  if (item?.status !== "synced") {
    throw new Error(`the worker's CSV ended ${item?.status}: ${item?.error ?? ""}`);
  }
  return { size: fs.statSync(csv).size, idle: idle.rssBytes, peak: done.peakBytes, ms: done.ms ?? 0 };
}

/**
 * Peak memory of a worker ingesting the big CSV, against the same worker idle; and the same for a
 * CSV a quarter of its size: streamed, the memory the ingestion adds does not follow the size.
 */
async function memoryBench(csv: string) {
  const quarter = path.join(TMP, "products-quarter.csv");
  await writeProductsCsv(quarter, CSV_ROWS / 4, 3);
  const small = await workerIngesting(quarter);
  const big = await workerIngesting(csv);
  const extra = (m: WorkerMemory) => m.peak - m.idle;
  const line = (m: WorkerMemory) =>
    `  CSV ${mb(m.size)} (${ms(m.ms)}): idle ${mb(m.idle)} resident (baseline), peak ${mb(m.peak)} ` +
    `(VmHWM) = ${(m.peak / m.idle).toFixed(2)}× idle; ingestion added ${mb(extra(m))} = ` +
    `${(extra(m) / m.size).toFixed(2)}× the file's size`;
  const ratio = extra(big) / big.size;
  const sizes = big.size / small.size;
  // Held whole, the added memory follows the file (and is several times its size); streamed, it
  // stays near the batches' size plus the slack V8 leaves before it collects.
  const growth = extra(big) / Math.max(extra(small), 1);
  const proportional = growth >= 0.75 * sizes;
  return [
    "worker process ingesting a CSV (peak resident memory):",
    line(small),
    line(big),
    `  ${sizes.toFixed(1)}× the file, ${growth.toFixed(1)}× the added memory — ` +
      (ratio > MEMORY_GOAL
        ? `ABOVE the goal (flat, far from ${MEMORY_GOAL}× the file): the CSV is not streamed`
        : proportional
          ? `${ratio.toFixed(2)}× the file's size, but growing as the file does: not flat (goal: flat)`
          : `meets the goal: ${ratio.toFixed(2)}× the file's size, growing far slower than the file`),
  ];
}

function summarize(timings: Timing[]) {
  const all = timings.map((t) => t.ms);
  return { p50: percentile(all, 50), p99: percentile(all, 99), max: Math.max(...all) };
}

const againstGoal = (p99: number) =>
  p99 <= P99_GOAL_MS ? `meets the goal (≤ ${P99_GOAL_MS} ms)` : `ABOVE the goal (≤ ${P99_GOAL_MS} ms)`;

/**
 * Each query on each app in turn (a service answers many apps), after a warm-up of them all (a
 * running service's index and table are in memory).
 */
async function timeBoth(queries: string[], big: CorpusApp, small: CorpusApp) {
  for (const q of queries) {
    await timeRetrieval(big.appId, q);
    await timeRetrieval(small.appId, q);
  }
  const bigTimes: Timing[] = [];
  const smallTimes: Timing[] = [];
  for (const q of queries) {
    bigTimes.push(await timeRetrieval(big.appId, q));
    smallTimes.push(await timeRetrieval(small.appId, q));
  }
  return { bigTimes, smallTimes };
}

async function retrievalBench() {
  const big: CorpusApp = { appId: (await newApp("1M chunks")).id, chunks: BIG_CHUNKS };
  const small: CorpusApp = { appId: (await newApp("10k chunks")).id, chunks: SMALL_CHUNKS };
  await fillCorpus([big, small], (line) => log(`  ${line}`));
  const queries = makeQueries(QUERY_COUNT);
  const { bigTimes, smallTimes } = await timeBoth(queries, big, small);
  if (!bigTimes.some((t) => t.found > 0))
    throw new Error("no query found a chunk: the corpus is not searchable");
  const b = summarize(bigTimes);
  const s = summarize(smallTimes);
  const found = (ts: Timing[]) => ts.filter((t) => t.found > 0).length;
  const lines = [
    `retrieval top 10, ${queries.length} queries (e.g. ${queries
      .slice(0, 3)
      .map((q) => `"${q}"`)
      .join(", ")}):`,
    `  app of ${SMALL_CHUNKS.toLocaleString("en")} chunks (baseline): p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, ` +
      `max ${s.max.toFixed(1)} ms; ${found(smallTimes)} queries found chunks`,
    `  app of ${BIG_CHUNKS.toLocaleString("en")} chunks: p50 ${b.p50.toFixed(1)} ms, p99 ${b.p99.toFixed(1)} ms, ` +
      `max ${b.max.toFixed(1)} ms; ${found(bigTimes)} queries found chunks`,
    `  ${BIG_CHUNKS.toLocaleString("en")} ÷ ${SMALL_CHUNKS.toLocaleString("en")}: p50 ${(b.p50 / s.p50).toFixed(2)}×, ` +
      `p99 ${(b.p99 / s.p99).toFixed(2)}× — p99 ${againstGoal(b.p99)}`,
  ];
  const slowest = [...bigTimes].sort((x, y) => y.ms - x.ms).slice(0, 5);
  lines.push(`  slowest: ${slowest.map((t) => `"${t.query}" ${t.ms.toFixed(0)} ms`).join(", ")}`);
  // The same queries while sources are being added: the GIN indexes hold what was just written in
  // their pending lists, read by every search until a VACUUM merges them.
  await writeMoreChunks(big, WRITTEN_AFTER, WRITTEN_ITEMS);
  const pending = await pendingPages();
  const { bigTimes: afterTimes } = await timeBoth(queries, big, small);
  const w = summarize(afterTimes);
  lines.push(
    `  after ${WRITTEN_AFTER.toLocaleString("en")} more chunks written (${WRITTEN_ITEMS} sources added, no VACUUM since; ` +
      `${pending ?? "unknown"} pages in the GIN pending lists): p50 ${w.p50.toFixed(1)} ms, p99 ${w.p99.toFixed(1)} ms, ` +
      `max ${w.max.toFixed(1)} ms; ${found(afterTimes)} queries found chunks — p99 ${againstGoal(w.p99)}`,
  );
  if (b.p99 > P99_GOAL_MS) {
    lines.push(`  plan of the slowest ("${slowest[0]!.query}"):`);
    for (const l of await explainSearch(big.appId, slowest[0]!.query)) lines.push(`    ${l}`);
  }
  return lines;
}

/**
 * Smart items filtering as a run calls it (lib/context/retrieve.ts findMatchingRows, 50 rows), per
 * kind of condition: a value of one row (sku), one of 18 (category), one of 500 (stock), two
 * include conditions, exclude, include + exclude, none.
 */
async function filterBench() {
  const big: RowsApp = { appId: (await newApp("1M rows")).id, items: 10, rowsPerItem: 100_000 };
  const small: RowsApp = { appId: (await newApp("10k rows")).id, items: 1, rowsPerItem: 10_000 };
  await fillRows([big, small], (line) => log(`  ${line}`));
  const cases: [string, RowCondition[]][] = [
    ["rare value (1 row)", [{ column: "sku", values: ["SKU-0000042"], mode: "include" }]],
    ["1 in 500 (stock)", [{ column: "stock", values: ["42"], mode: "include" }]],
    ["common value (1 in 18)", [{ column: "Category", values: ["kitchen"], mode: "include" }]],
    [
      "two includes",
      [
        { column: "category", values: ["Kitchen"], mode: "include" },
        { column: "stock", values: ["42"], mode: "include" },
      ],
    ],
    ["exclude", [{ column: "category", values: ["Kitchen", "Toys"], mode: "exclude" }]],
    [
      "include + exclude",
      [
        { column: "category", values: ["Kitchen"], mode: "include" },
        { column: "stock", values: ["1", "2"], mode: "exclude" },
      ],
    ],
    ["no condition", []],
  ];
  const time = async (appId: string, conditions: RowCondition[]) => {
    const ms: number[] = [];
    let found = 0;
    await findMatchingRows(appId, conditions);
    for (let i = 0; i < FILTER_RUNS; i++) {
      const started = performance.now();
      found = (await findMatchingRows(appId, conditions)).length;
      ms.push(performance.now() - started);
    }
    return { p50: percentile(ms, 50), p99: percentile(ms, 99), found };
  };
  const lines = [`smart items filtering (findMatchingRows, 50 rows), ${FILTER_RUNS} runs per case:`];
  let worst = 0;
  for (const [label, conditions] of cases) {
    const s = await time(small.appId, conditions);
    const b = await time(big.appId, conditions);
    worst = Math.max(worst, b.p99);
    lines.push(
      `  ${label.padEnd(24)} 1M rows: p50 ${b.p50.toFixed(1)} ms, p99 ${b.p99.toFixed(1)} ms (${b.found} rows); ` +
        `10k rows (baseline): p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms`,
    );
  }
  lines.push(`  slowest case at 1M rows: p99 ${worst.toFixed(1)} ms`);
  return lines;
}

async function main() {
  const unknown = ONLY_PARTS?.filter((p) => !(PARTS as readonly string[]).includes(p));
  if (unknown?.length)
    throw new Error(`BENCH_CONTEXT: unknown part ${unknown.join(", ")} (${PARTS.join(", ")})`);
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
  log(`bench (data sources): files in ${TMP}; load average ${load} on ${os.cpus().length} cores`);
  const csv = path.join(TMP, "products.csv");
  const pdf = path.join(TMP, "report.pdf");
  if (wants("ingestion") || wants("memory")) {
    const csvSize = await writeProductsCsv(csv, CSV_ROWS);
    fs.writeFileSync(pdf, await makeReportPdf(PDF_PAGES));
    log(
      `  made ${path.basename(csv)} (${mb(csvSize)}, ${CSV_ROWS.toLocaleString("en")} rows) and ` +
        `${path.basename(pdf)} (${mb(fs.statSync(pdf).size)}, ${PDF_PAGES} pages)`,
    );
  }

  const lines: string[] = [];
  if (wants("ingestion")) {
    log("bench (data sources): ingestion, upload to Synced vs parsing alone");
    lines.push(...(await ingestionBench(csv, pdf)));
  }
  if (wants("memory")) {
    log("bench (data sources): memory of a worker ingesting the CSV");
    lines.push(...(await memoryBench(csv)));
  }
  if (wants("retrieval")) {
    log(
      `bench (data sources): retrieval, filling ${BIG_CHUNKS.toLocaleString("en")} + ${SMALL_CHUNKS.toLocaleString("en")} chunks`,
    );
    lines.push(...(await retrievalBench()));
  }
  if (wants("filter")) {
    log("bench (data sources): smart items filtering, filling 1,000,000 + 10,000 rows");
    lines.push(...(await filterBench()));
  }

  log("");
  for (const line of lines) log(line);
}

async function cleanup() {
  await stopBoss();
  await closeDb();
  fs.rmSync(TMP, { recursive: true, force: true });
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    fs.rmSync(TMP, { recursive: true, force: true });
    process.exit(130);
  });
}

main()
  .catch((err) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exitCode = 1;
  })
  .finally(cleanup);
