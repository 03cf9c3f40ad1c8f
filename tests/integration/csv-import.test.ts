import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as importRoute from "@/app/api/apps/[appId]/entities/[entity]/imports/[importId]/route";
import * as importsRoute from "@/app/api/apps/[appId]/entities/[entity]/imports/route";
import { db } from "@/db/client";
import { writeImportBatch } from "@/db/queries/entity-imports";
import { type App, entityImports, entityRecords } from "@/db/schema";
import type { CsvImportView } from "@/lib/app-data/csv-import";
import { runCsvImportJob } from "@/lib/app-data/csv-import";
import { CSV_IMPORT_BATCH_ROWS, CSV_IMPORT_BYTES_MAX, CSV_IMPORT_PIECE_BYTES } from "@/lib/constants";
import type { CsvMapping } from "@/lib/csv/schemas";
import { runDueJobs } from "@/lib/jobs/worker";
import { messages } from "@/lib/messages";
import type { createBuilder } from "../support/factories";
import { call } from "../support/http";
import { builderAppWithEntity } from "../support/space";
import { send } from "../support/uploads-client";

// A CSV file imported into an entity as a job: stored by the request, parsed and written by the
// job a batch at a time, each row checked against the entity's schema; the panel reads the
// progress and the result.

type Builder = Awaited<ReturnType<typeof createBuilder>>;

const TASK = JSON.stringify({
  type: "object",
  properties: {
    title: { type: "string", maxLength: 20 },
    done: { type: "boolean" },
    points: { type: "number" },
    tags: { type: "array", items: { type: "string", enum: ["home", "work", "errands"] } },
    due: { type: "string", format: "date" },
    meta: { type: "object" },
  },
  required: ["title"],
});

const taskApp = () => builderAppWithEntity("Task", TASK);

const col = (
  csvHeader: string,
  schemaField: string | null,
  dataType: CsvMapping["dataType"] = "text",
  splitCharacter: CsvMapping["splitCharacter"] = null,
): CsvMapping => ({ csvHeader, schemaField, dataType, splitCharacter });

const MAPPING: CsvMapping[] = [
  col("Id", "id"),
  col("Title", "title"),
  col("Done", "done", "boolean"),
  col("Points", "points", "number"),
  col("Tags", "tags", "multiselect", ";"),
  col("Due", "due", "datetime"),
  col("Meta", "meta", "json"),
  col("Notes", null),
];

/** The upload form as the wizard sends it: the mapping's JSON and the file. */
function form(csv: string | Uint8Array, mapping: unknown = MAPPING): FormData {
  const f = new FormData();
  f.set("mapping", typeof mapping === "string" ? mapping : JSON.stringify(mapping));
  f.set("file", new Blob([csv as BlobPart], { type: "text/csv" }), "tasks.csv");
  return f;
}

/** The form's bytes and their content type (with its boundary), as a browser sends them. */
async function encoded(body: FormData) {
  const req = new Request("http://localhost/", { method: "POST", body });
  return { bytes: new Uint8Array(await req.arrayBuffer()), type: req.headers.get("content-type")! };
}

const post = async (app: App, b: Builder, body: FormData, entity = "Task") => {
  const { bytes, type } = await encoded(body);
  return send(importsRoute.POST, {
    method: "POST",
    path: `/api/apps/${app.id}/entities/${entity}/imports`,
    params: { appId: app.id, entity },
    token: b.token,
    body: bytes,
    headers: { "content-type": type, "content-length": String(bytes.byteLength) },
  });
};

const upload = (app: App, b: Builder, csv: string, mapping: unknown = MAPPING) =>
  post(app, b, form(csv, mapping));

const progress = (app: App, b: Builder, importId: string) =>
  call<CsvImportView>(importRoute.GET, {
    method: "GET",
    path: `/api/apps/${app.id}/entities/Task/imports/${importId}`,
    params: { appId: app.id, entity: "Task", importId },
    token: b.token,
  });

const recordsOf = async (app: App) =>
  (
    await db()
      .select({ data: entityRecords.data, creatorId: entityRecords.creatorId })
      .from(entityRecords)
      .where(eq(entityRecords.appId, app.id))
  ).sort((x, y) => String(x.data.title).localeCompare(String(y.data.title)));

const importIdOf = (res: { json: unknown }) => (res.json as { importId: string }).importId;

describe("a CSV import", () => {
  it("writes the valid rows by the mapping and lists the failed ones with their reason", async () => {
    const { b, app } = await taskApp();
    const csv = [
      "Id,Title,Done,Points,Tags,Due,Meta,Notes",
      'x1,Buy milk,yes,3,home;errands,2026-01-31,"{""a"":1}",ignored',
      'x2,Ship it,FALSE,"1,500",work,,,',
      "x3,Bad points,true,lots,,,,",
      "x4,A title that is far too long,true,1,,,,",
      "x5,Bad tag,true,1,garden,,,",
      "x6,Bad json,true,1,,,{nope,",
      "x7,,true,,,,,",
      ",,,,,,,only notes",
    ].join("\n");
    const res = await upload(app, b, csv);
    expect(res.status).toBe(200);
    const importId = importIdOf(res);
    expect((await progress(app, b, importId)).json).toMatchObject({ status: "queued", imported: 0 });

    expect(await runDueJobs()).toBeGreaterThanOrEqual(1);
    const done = await progress(app, b, importId);
    expect(done.status).toBe(200);
    expect(done.json).toMatchObject({ status: "complete", total: 8, imported: 2, failed: 6 });
    expect(done.json.message).toBe("Import completed with 6 failed rows out of 8 total.");
    const rows = done.json.failedRows;
    expect(rows.map((r) => r.row)).toEqual([3, 4, 5, 6, 7, 8]);
    expect(rows[0]!.reason).toBe("points: 'lots' is not a valid number");
    expect(rows[1]!.reason).toContain("title");
    expect(rows[2]!.reason).toContain("tags");
    expect(rows[3]!.reason).toBe("meta: '{nope' is not a valid json");
    // A row without a title fails the schema's required field; one with only unmapped columns is empty.
    expect(rows[4]!.reason).toContain("title");
    expect(rows[5]!.reason).toBe(messages.databaseRowEmpty);

    // Typed by the mapping; the column mapped to id and the unmapped one are ignored.
    expect(await recordsOf(app)).toEqual([
      {
        creatorId: b.user.id,
        data: {
          title: "Buy milk",
          done: true,
          points: 3,
          tags: ["home", "errands"],
          due: "2026-01-31",
          meta: { a: 1 },
        },
      },
      { creatorId: b.user.id, data: { title: "Ship it", done: false, points: 1500, tags: ["work"] } },
    ]);
  });

  it("says so when every row went in", async () => {
    const { b, app } = await taskApp();
    const res = await upload(app, b, "Title,Done\nOne,true\nTwo,false\n");
    await runDueJobs();
    const done = await progress(app, b, importIdOf(res));
    expect(done.json).toMatchObject({ status: "complete", total: 2, imported: 2, failed: 0, failedRows: [] });
    expect(done.json.message).toBe("Successfully imported all 2 rows.");
  });

  it("run again after its batches are in (a retried job) writes no row twice", async () => {
    const { b, app } = await taskApp();
    const n = CSV_IMPORT_BATCH_ROWS * 2 + 7;
    const csv = ["Title,Points", ...Array.from({ length: n }, (_, i) => `Task ${i},${i}`)].join("\n");
    const importId = importIdOf(await upload(app, b, csv));
    await runDueJobs();
    expect((await recordsOf(app)).length).toBe(n);
    const [first] = await db().select().from(entityImports).where(eq(entityImports.id, importId));
    expect(first).toMatchObject({ batches: 3, imported: n });

    // The worker died after its last batch, before it said complete: pg-boss runs the job again.
    await db().update(entityImports).set({ status: "importing", csv }).where(eq(entityImports.id, importId));
    await runCsvImportJob({ importId }, { finalAttempt: false });
    expect((await recordsOf(app)).length).toBe(n);
    expect((await progress(app, b, importId)).json).toMatchObject({
      status: "complete",
      total: n,
      imported: n,
    });

    // A batch already in is refused whole: no record, no progress.
    expect(await writeImportBatch(first!, 1, [JSON.stringify({ title: "again" })], [], 10)).toBe(false);
    expect((await recordsOf(app)).length).toBe(n);
  });

  it("of a file of several pieces and batches numbers its rows across them, and resumes after a batch the database refused", async () => {
    const { b, app } = await taskApp();
    // Over two pieces of the file and two batches; one row in 1,000 has points that are not a number.
    const n = CSV_IMPORT_BATCH_ROWS * 2 + 500;
    const pad = "x".repeat(Math.ceil((CSV_IMPORT_PIECE_BYTES * 2) / n));
    const lines = Array.from({ length: n }, (_, i) => `T${i + 1},${(i + 1) % 1000 === 0 ? "bad" : i},${pad}`);
    const csv = ["Title,Points,Notes", ...lines].join("\n");
    expect(csv.length).toBeGreaterThan(CSV_IMPORT_PIECE_BYTES * 2);
    const badRows = Array.from({ length: Math.floor(n / 1000) }, (_, k) => (k + 1) * 1000);
    const importId = importIdOf(await upload(app, b, csv));

    // The database refuses a record of the second batch: the batch before is in whole, this one
    // not at all, and the job throws for pg-boss to run it again.
    const poison = `T${CSV_IMPORT_BATCH_ROWS + 10}`;
    const fn = `refuse_import_${app.id.replaceAll("-", "")}`;
    await db().execute(
      sql.raw(`create function ${fn}() returns trigger language plpgsql as $$ begin
        if new.app_id = '${app.id}' and new.data ->> 'title' = '${poison}' then raise exception 'refused row'; end if;
        return new; end $$;
        create trigger ${fn} before insert on entity_records for each row execute function ${fn}();`),
    );
    try {
      await expect(runCsvImportJob({ importId }, { finalAttempt: false })).rejects.toThrow();
    } finally {
      await db().execute(sql.raw(`drop trigger ${fn} on entity_records; drop function ${fn}();`));
    }
    const inFirst = CSV_IMPORT_BATCH_ROWS - badRows.filter((r) => r <= CSV_IMPORT_BATCH_ROWS).length;
    expect((await recordsOf(app)).length).toBe(inFirst);
    expect((await progress(app, b, importId)).json).toMatchObject({
      status: "importing",
      total: CSV_IMPORT_BATCH_ROWS,
      imported: inFirst,
    });

    // Run again: the first batch is skipped, the rest written once.
    await runCsvImportJob({ importId }, { finalAttempt: false });
    const done = await progress(app, b, importId);
    expect(done.json).toMatchObject({ status: "complete", total: n, imported: n - badRows.length });
    expect(done.json.failedRows.map((r) => r.row)).toEqual(badRows);
    expect(done.json.failedRows[0]!.reason).toBe("points: 'bad' is not a valid number");
    const titles = (await recordsOf(app)).map((r) => r.data.title);
    expect(new Set(titles).size).toBe(n - badRows.length);
    expect(titles.length).toBe(n - badRows.length);
  });

  it("that fails for good says the spec's message", async () => {
    const { b, app } = await taskApp();
    const importId = importIdOf(await upload(app, b, "Title\nOne\n"));
    await db()
      .update(entityImports)
      .set({ mapping: [{ nonsense: true }] })
      .where(eq(entityImports.id, importId));
    await runDueJobs();
    const done = await progress(app, b, importId);
    expect(done.json).toMatchObject({ status: "failed", imported: 0 });
    expect(done.json.message).toBe("Failed to import data. Please try again.");
    expect(done.json.message).toBe(messages.csvImportFailed);
  });

  it("of an empty file or one without data rows is refused with the spec's words", async () => {
    const { b, app } = await taskApp();
    for (const csv of ["", "  \n\n", "\uFEFF"]) {
      const res = await upload(app, b, csv);
      expect(res.status).toBe(400);
      expect(res.json?.error.message).toBe("CSV file appears to be empty");
    }
    for (const csv of ["Title,Done", "Title,Done\n,\n , \n"]) {
      const res = await upload(app, b, csv);
      expect(res.status).toBe(400);
      expect(res.json?.error.message).toBe("No valid data rows found in CSV");
    }
    expect(await db().select().from(entityImports).where(eq(entityImports.appId, app.id))).toEqual([]);
  });

  it("refuses a mapping that is not one, a file that is not text, and an unknown entity or import", async () => {
    const { b, app } = await taskApp();
    expect((await upload(app, b, "Title\nOne", "nope")).status).toBe(400);
    expect((await upload(app, b, "Title\nOne", [{ csvHeader: "Title" }])).status).toBe(400);
    const binary = await post(app, b, form(new Uint8Array([0x54, 0x0a, 0xff, 0xfe, 0x00])));
    expect(binary.status).toBe(400);
    expect(binary.json?.error.message).toBe(messages.csvParseFailed);
    const other = await post(app, b, form("Title\nOne"), "Nope");
    expect(other.status).toBe(404);
    const missing = await progress(app, b, "00000000-0000-4000-8000-000000000000");
    expect(missing.status).toBe(404);
  });

  it("takes a wide file: its mapping rides in the form, and the body may pass the JSON routes' cap", async () => {
    const { b, app } = await taskApp();
    // 300 columns: the mapping's JSON alone is far past what a URL holds, the file past 16 KiB.
    const headers = ["Title", ...Array.from({ length: 299 }, (_, i) => `Extra column number ${i}`)];
    const mapping = headers.map((h, i) => col(h, i === 0 ? "title" : null));
    const rows = Array.from({ length: 20 }, (_, r) =>
      [`Task ${r}`, ...headers.slice(1).map(() => "x")].join(","),
    );
    const csv = [headers.join(","), ...rows].join("\n");
    expect(JSON.stringify(mapping).length).toBeGreaterThan(20_000);
    const res = await upload(app, b, csv, mapping);
    expect(res.status).toBe(200);
    await runDueJobs();
    const done = await progress(app, b, importIdOf(res));
    expect(done.json).toMatchObject({ status: "complete", total: 20, imported: 20, failed: 0 });
  });

  it("refuses a body that is not a form, a form without its file, and one over the cap", async () => {
    const { b, app } = await taskApp();
    const raw = await send(importsRoute.POST, {
      method: "POST",
      path: `/api/apps/${app.id}/entities/Task/imports`,
      params: { appId: app.id, entity: "Task" },
      token: b.token,
      body: "Title\nOne",
      headers: { "content-type": "text/csv" },
    });
    expect(raw.status).toBe(400);
    const noFile = new FormData();
    noFile.set("mapping", JSON.stringify(MAPPING));
    const empty = await post(app, b, noFile);
    expect(empty.status).toBe(400);
    expect(empty.json?.error.message).toBe(messages.csvEmpty);
    const noMapping = new FormData();
    noMapping.set("file", new Blob(["Title\nOne"]), "tasks.csv");
    expect((await post(app, b, noMapping)).status).toBe(400);
    // A declared length past the cap is refused before a byte is read.
    const big = await send(importsRoute.POST, {
      method: "POST",
      path: `/api/apps/${app.id}/entities/Task/imports`,
      params: { appId: app.id, entity: "Task" },
      token: b.token,
      body: "x",
      headers: {
        "content-type": "multipart/form-data; boundary=x",
        "content-length": String(CSV_IMPORT_BYTES_MAX + 2 * 1024 * 1024),
      },
    });
    expect(big.status).toBe(413);
    expect(big.json?.error.message).toBe("The CSV file is too large (max 50 MB)");
    expect(await db().select().from(entityImports).where(eq(entityImports.appId, app.id))).toEqual([]);
  });
});
