import crypto from "node:crypto";
import os from "node:os";
import { finished } from "node:stream/promises";
import { from as copyFrom } from "pg-copy-streams";
import * as bulkRoute from "@/app/api/apps/[appId]/data/[entity]/bulk/route";
import * as importRoute from "@/app/api/apps/[appId]/entities/[entity]/imports/[importId]/route";
import * as recordsRoute from "@/app/api/apps/[appId]/entities/[entity]/records/route";
import { pool } from "@/db/client";
import { copyText } from "@/db/copy-text";
import type { App } from "@/db/schema";
import { type CsvImportView, startCsvImport } from "@/lib/app-data/csv-import";
import { convertRow, importedColumns } from "@/lib/csv/convert-row";
import type { CsvMapping } from "@/lib/csv/schemas";
import { runDueJobs } from "@/lib/jobs/worker";
import { stopBoss } from "@/lib/queue/boss";
import { queueCsvImport } from "@/lib/queue/enqueue-csv-import";
import { appTokenFor, publish, setEntity } from "../tests/support/app-data";
import { createBuilder } from "../tests/support/factories";
import { call } from "../tests/support/http";
import { createSpaceApp } from "../tests/support/space";
import { withScratchDb } from "./scratch-db";
import { median } from "./stats";

// The CSV import of the Database panel, figures only, never pass/fail: a file of 100,000 rows of
// six typed columns (text, number, boolean, enum, a list split by '|', a date; one row in a
// thousand has a number that is not one) imported into an entity through the real path:
//   startCsvImport (the service POST .../imports calls once it read the file: checks, stores the
//   file and its mapping, queues the pg-boss job), the pg-boss job fetched and run as the worker
//   runs it (lib/jobs/worker.ts runDueJobs: parsed in the capped worker, each row made a record by
//   the mapping and checked against the entity's schema, written a batch at a time), until the
//   panel's list (GET .../entities/{entity}/records) counts every imported row;
// as a ratio of rows per second to COPY ... FROM STDIN of the same records (already typed, as JSON
// text lines built before the clock starts) into the same table, entity_records, in the same run
// (goal ≥ 0.5×). Rounds alternate the two, each into an app of its own (same table, same indexes).
// Checked beside the speed: the import's counts (imported and failed) against the expected ones,
// and every stored record against the expected one.
// Then, for comparison, the spec's pattern: 10-row requests, 3 at a time, through the data API's
// bulk create (POST /api/apps/{appId}/data/{entity}/bulk, the builder's app token), on a part of
// the file (BENCH_IMPORT_SPEC_ROWS), as a ratio to the same COPY rate.
// Run by bench/run.ts as a child process on its database (DATABASE_URL), or alone:
//   NODE_ENV=production node --conditions=react-server --import tsx bench/csv-import.ts
// BENCH_IMPORT_ROWS (default 100000), BENCH_IMPORT_ROUNDS (default 3), BENCH_IMPORT_SPEC_ROWS
// (default 10000; 0 skips it).

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_IMPORT_ROUNDS ?? 3);
const SPEC_ROWS = Number(process.env.BENCH_IMPORT_SPEC_ROWS ?? 10_000);
const SPEC_BATCH = 10;
const SPEC_PARALLEL = 3;
const GOAL = 0.5;
const DB_NAME = "bench_csv_import";
const ENTITY = "Product";
const BAD_EVERY = 1000;

const log = (line = "") => console.log(line);
const sec = (x: number) => `${(x / 1000).toFixed(2)} s`;
const perSec = (rows: number, ms: number) => Math.round((rows / ms) * 1000);
const fmt = (n: number) => n.toLocaleString("en");

const SCHEMA = JSON.stringify({
  type: "object",
  properties: {
    name: { type: "string", minLength: 1, maxLength: 200 },
    price: { type: "number", minimum: 0 },
    inStock: { type: "boolean" },
    status: { type: "string", enum: ["draft", "active", "archived"] },
    tags: { type: "array", items: { type: "string", enum: ["red", "green", "blue", "small", "large"] } },
    released: { type: "string", format: "date" },
  },
  required: ["name"],
});

const MAPPING: CsvMapping[] = [
  { csvHeader: "Name", schemaField: "name", dataType: "text", splitCharacter: null },
  { csvHeader: "Price", schemaField: "price", dataType: "number", splitCharacter: null },
  { csvHeader: "In stock", schemaField: "inStock", dataType: "boolean", splitCharacter: null },
  { csvHeader: "Status", schemaField: "status", dataType: "select", splitCharacter: null },
  { csvHeader: "Tags", schemaField: "tags", dataType: "multiselect", splitCharacter: "|" },
  { csvHeader: "Released", schemaField: "released", dataType: "datetime", splitCharacter: null },
  { csvHeader: "Internal note", schemaField: null, dataType: "text", splitCharacter: null },
];

const TAGS = ["red", "green", "blue", "small", "large"];
const STATUSES = ["draft", "active", "archived"];

/** The file: a header and ROWS rows, some quoted (a comma in the name), one in BAD_EVERY unreadable. */
function makeCsv(): { csv: string; expected: Record<string, unknown>[]; bad: number } {
  const lines = ["Name,Price,In stock,Status,Tags,Released,Internal note"];
  const rowsOf: Record<string, string>[] = [];
  for (let i = 1; i <= ROWS; i++) {
    const name = i % 7 === 0 ? `Widget ${i}, size ${i % 13}` : `Widget ${i}`;
    const price = i % BAD_EVERY === 0 ? "n/a" : (((i * 37) % 100_000) / 100).toFixed(2);
    const row = {
      Name: name,
      Price: price,
      "In stock": i % 3 === 0 ? "no" : "yes",
      Status: STATUSES[i % 3]!,
      Tags: [TAGS[i % 5], TAGS[(i + 2) % 5]].join("|"),
      Released: `20${String(10 + (i % 15))}-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`,
      "Internal note": `note ${i}`,
    };
    rowsOf.push(row);
    lines.push(
      [row.Name.includes(",") ? `"${row.Name}"` : row.Name, ...Object.values(row).slice(1)].join(","),
    );
  }
  // What the import must store: the same conversion, the rows it cannot read left out.
  const columns = importedColumns(MAPPING);
  const expected: Record<string, unknown>[] = [];
  let bad = 0;
  for (const r of rowsOf) {
    const c = convertRow(r, columns);
    if ("problem" in c) bad++;
    else expected.push(c.fields);
  }
  return { csv: `${lines.join("\n")}\n`, expected, bad };
}

type Setup = { app: App; builderId: string; builderToken: string };

async function newApp(builder: Awaited<ReturnType<typeof createBuilder>>, name: string): Promise<Setup> {
  const app = await createSpaceApp(builder.account.accountId, name);
  await setEntity(app, builder.account.accountId, ENTITY, SCHEMA);
  return { app, builderId: builder.user.id, builderToken: builder.token };
}

/** COPY of the records (JSON text lines made beforehand) into entity_records, in one statement. */
async function copyRows(s: Setup, expected: Record<string, unknown>[]): Promise<number> {
  const prefix = `${s.app.id}\t${ENTITY}\t${s.builderId}\t`;
  const pieces: string[] = [];
  let piece = "";
  for (const data of expected) {
    piece += `${prefix}${copyText(JSON.stringify(data))}\n`;
    if (piece.length >= 64 * 1024) {
      pieces.push(piece);
      piece = "";
    }
  }
  if (piece) pieces.push(piece);
  const client = await pool().connect();
  try {
    const t = performance.now();
    const stream = client.query(
      copyFrom("COPY entity_records (app_id, entity, creator_id, data) FROM STDIN"),
    );
    const done = finished(stream);
    for (const p of pieces) if (!stream.write(p)) await new Promise((r) => stream.once("drain", r));
    stream.end();
    await done;
    return performance.now() - t;
  } finally {
    client.release();
  }
}

/** The panel's list: the first page and the entity's count. */
async function panelCount(s: Setup): Promise<number> {
  const res = await call<{ total: number; records: unknown[] }>(recordsRoute.GET, {
    method: "GET",
    path: `/api/apps/${s.app.id}/entities/${ENTITY}/records?limit=50`,
    params: { appId: s.app.id, entity: ENTITY },
    token: s.builderToken,
  });
  if (res.status !== 200) throw new Error(`records answered ${res.status}: ${JSON.stringify(res.json)}`);
  return res.json.total;
}

/** Upload to every row visible: the import's service, the pg-boss job, the panel's count. */
async function importRows(s: Setup, csv: string, expectedCount: number) {
  const t = performance.now();
  const { importId } = await startCsvImport(s.app, s.builderId, ENTITY, csv, MAPPING, queueCsvImport);
  const parts: number[] = [performance.now() - t];
  const ran = await runDueJobs();
  parts.push(performance.now() - t);
  const visible = await panelCount(s);
  const ms = performance.now() - t;
  if (ran < 1) throw new Error("the import's job was not run");
  const res = await call<CsvImportView>(importRoute.GET, {
    method: "GET",
    path: `/api/apps/${s.app.id}/entities/${ENTITY}/imports/${importId}`,
    params: { appId: s.app.id, entity: ENTITY, importId },
    token: s.builderToken,
  });
  if (res.status !== 200) throw new Error(`import answered ${res.status}`);
  if (visible !== expectedCount)
    log(`  the panel counts ${fmt(visible)} rows, ${fmt(expectedCount)} expected`);
  return { ms, queuedMs: parts[0]!, jobMs: parts[1]! - parts[0]!, view: res.json };
}

/** How many stored records of the app are the expected ones (by name), field for field. */
async function sameRecords(s: Setup, expected: Record<string, unknown>[]): Promise<number> {
  const { rows } = await pool().query<{ data: Record<string, unknown>; creator_id: string }>(
    "SELECT data, creator_id FROM entity_records WHERE app_id = $1 AND entity = $2",
    [s.app.id, ENTITY],
  );
  const byName = new Map(expected.map((e) => [e.name as string, JSON.stringify(sorted(e))]));
  let equal = 0;
  for (const r of rows) {
    if (
      r.creator_id === s.builderId &&
      byName.get(r.data.name as string) === JSON.stringify(sorted(r.data))
    ) {
      equal++;
      byName.delete(r.data.name as string);
    }
  }
  return equal;
}

const sorted = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));

/** The spec's pattern: the records in requests of SPEC_BATCH, SPEC_PARALLEL at a time, through bulk create. */
async function specPattern(s: Setup, records: Record<string, unknown>[]): Promise<number> {
  const token = await appTokenFor(s.app.id, s.builderToken);
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < records.length; i += SPEC_BATCH) batches.push(records.slice(i, i + SPEC_BATCH));
  let next = 0;
  const t = performance.now();
  const lane = async () => {
    for (let b = batches[next++]; b; b = batches[next++]) {
      const res = await call(bulkRoute.POST, {
        path: `/api/apps/${s.app.id}/data/${ENTITY}/bulk`,
        params: { appId: s.app.id, entity: ENTITY },
        token,
        body: { records: b },
      });
      if (res.status !== 200) throw new Error(`bulk answered ${res.status}: ${JSON.stringify(res.json)}`);
    }
  };
  await Promise.all(Array.from({ length: SPEC_PARALLEL }, lane));
  return performance.now() - t;
}

async function main() {
  if (!process.env.AUTH_SECRET) process.env.AUTH_SECRET = crypto.randomBytes(32).toString("base64url");
  await withScratchDb(DB_NAME, async () => {
    const { csv, expected, bad } = makeCsv();
    log(
      `bench (CSV import): ${fmt(ROWS)} rows of 7 columns (6 mapped: text, number, boolean, enum, a list, a date), ` +
        `${(Buffer.byteLength(csv) / 1e6).toFixed(1)} MB, ${fmt(bad)} rows with an unreadable number; ${ROUNDS} rounds`,
    );
    const builder = await createBuilder();
    // Warm-up: the worker's start, the schema's compilation, the statements' plans.
    const warm = await newApp(builder, "Warm-up");
    await publish(warm.app);
    await importRows(warm, csv.split("\n").slice(0, 2001).join("\n"), 2000 - 2);
    await copyRows(warm, expected.slice(0, 2000));

    const copyMs: number[] = [];
    const importMs: number[] = [];
    const jobMs: number[] = [];
    const checks: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const [forCopy, forImport] = [
        await newApp(builder, `Copy ${round}`),
        await newApp(builder, `Import ${round}`),
      ];
      const runCopy = async () => copyMs.push(await copyRows(forCopy, expected));
      const runImport = async () => {
        const r = await importRows(forImport, csv, expected.length);
        importMs.push(r.ms);
        jobMs.push(r.jobMs);
        const equal = await sameRecords(forImport, expected);
        checks.push(
          `round ${round + 1}: ${r.view.status}, imported ${fmt(r.view.imported)}/${fmt(expected.length)}, ` +
            `failed ${fmt(r.view.failed)}/${fmt(bad)}, total ${fmt(r.view.total)}/${fmt(ROWS)}; ` +
            `stored records equal to the expected: ${fmt(equal)}/${fmt(expected.length)}; ` +
            `queued in ${sec(r.queuedMs)}, the job ${sec(r.jobMs)}`,
        );
      };
      // Alternated: other work on the machine weighs on both alike.
      if (round % 2 === 0) {
        await runCopy();
        await runImport();
      } else {
        await runImport();
        await runCopy();
      }
    }
    const copyRate = perSec(expected.length, median(copyMs));
    const importRate = perSec(ROWS, median(importMs));
    log("");
    log(
      `COPY ... FROM STDIN of the ${fmt(expected.length)} records: median ${sec(median(copyMs))}, ${fmt(copyRate)} rows/s`,
    );
    log(
      `the import, upload to all rows visible: median ${sec(median(importMs))} (the job ${sec(median(jobMs))}), ` +
        `${fmt(importRate)} rows/s (rows of the file)`,
    );
    for (const c of checks) log(`  ${c}`);
    const ratio = importRate / copyRate;
    log(
      `import ÷ COPY = ${ratio.toFixed(2)}× in rows per second: ${ratio >= GOAL ? "meets" : "BELOW"} the goal (≥ ${GOAL}×)` +
        (ratio >= GOAL ? "" : ": profile runCsvImportJob (lib/app-data/csv-import.ts), writeImportBatch"),
    );

    if (SPEC_ROWS > 0) {
      const spec = await newApp(builder, "Spec pattern");
      await publish(spec.app);
      const part = expected.slice(0, SPEC_ROWS);
      const ms = await specPattern(spec, part);
      const stored = await sameRecords(spec, part);
      const rate = perSec(part.length, ms);
      log(
        `the spec's pattern (${SPEC_BATCH}-row bulk creates, ${SPEC_PARALLEL} at a time) on ${fmt(part.length)} records: ` +
          `${sec(ms)}, ${fmt(rate)} rows/s = ${(rate / copyRate).toFixed(2)}× COPY; stored records equal: ` +
          `${fmt(stored)}/${fmt(part.length)}`,
      );
    }
    log(
      `load average (1 min) of this machine's ${os.availableParallelism()} cores: ${os.loadavg()[0]!.toFixed(1)}`,
    );
    await stopBoss();
  });
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
