import "server-only";
import { Readable } from "node:stream";
import Papa from "papaparse";
import { z } from "zod";
import { findAppById } from "@/db/queries/apps";
import {
  createEntityImport,
  findEntityImport,
  findEntityImportById,
  setEntityImportStatus,
  writeImportBatch,
} from "@/db/queries/entity-imports";
import type { App, EntityImport, ImportFailedRow } from "@/db/schema";
import { BODY_CAP_MESSAGES, BODY_CAPS, CSV_TOO_LARGE } from "@/lib/api/body-caps";
import { readFormCapped } from "@/lib/api/read-form";
import {
  CSV_IMPORT_BATCH_ROWS,
  CSV_IMPORT_BYTES_MAX,
  CSV_IMPORT_FAILED_ROWS_KEPT,
  CSV_IMPORT_PIECE_BYTES,
  ENTITY_NAME,
} from "@/lib/constants";
import { parseCsvRows } from "@/lib/context/parse/run";
import { UnreadableFileError } from "@/lib/context/unreadable";
import { convertRow, importedColumns } from "@/lib/csv/convert-row";
import { CsvMapping } from "@/lib/csv/schemas";
import { AppError } from "@/lib/errors";
import { logError } from "@/lib/log";
import { messages } from "@/lib/messages";
import { entityFileOf } from "@/lib/space/entity-records";
import { fillTemplate } from "@/lib/text";
import { checkedRecordJson } from "./check-fields";
import { entitySchemaOf } from "./entity-schema";

// A CSV file imported into a space app's entity, as a job: the request stores the file and its
// column mapping and queues the job; the job parses the file in the capped parsing worker, makes
// each row a record by the mapping, checks it against the entity's schema as the data API does,
// and writes the valid ones a batch at a time (one INSERT each, with the import's progress, all or
// nothing: a retried job skips the batches already in). Rows that fail are counted and kept with
// their reason. The chat's import_entities action starts the same import (chat-import.ts).

export const CsvImportMappings = z.array(CsvMapping).min(1).max(1000);

/** What the panel reads of an import while it runs and once it ended. */
export const CsvImportAnswer = z.object({
  id: z.string(),
  status: z.enum(["queued", "importing", "complete", "failed"]),
  total: z.number(),
  imported: z.number(),
  failed: z.number(),
  failedRows: z.array(z.object({ row: z.number(), reason: z.string() })),
  /** The result's sentence once it ended. */
  message: z.string().optional(),
});
export type CsvImportView = z.infer<typeof CsvImportAnswer>;

export const CsvImportStartedAnswer = z.object({ importId: z.string() });

/**
 * POST .../imports: a multipart/form-data body of two parts, `mapping` (a JSON array of
 * { csvHeader, schemaField, dataType, splitCharacter }, as POST /api/csv/generateMapping answers
 * it) and `file` (the CSV file). A form rather than the query, whose length a wide file's mapping
 * would pass.
 */
export const CsvImportParams = z.object({
  appId: z.uuid(),
  entity: z.string().regex(ENTITY_NAME),
  importId: z.uuid(),
});

/** The parts of the upload form, for the API document. */
export const CSV_IMPORT_PARTS = {
  mapping: "The column mapping: a JSON array of { csvHeader, schemaField, dataType, splitCharacter }",
  file: "The CSV file, its first row the column headers",
} as const;

/** The request's form: its mapping and file, read and checked (400 with the spec's words), then stored and queued. */
export async function importCsvUpload(
  app: App,
  userId: string,
  entity: string,
  req: Request,
  queue: (importId: string) => Promise<void>,
): Promise<{ importId: string }> {
  const form = await readFormCapped(req, BODY_CAPS.csvImport, BODY_CAP_MESSAGES.csvImport);
  const mappingJson = form.get("mapping");
  let mappings: CsvMapping[];
  try {
    if (typeof mappingJson !== "string") throw new Error("no mapping part");
    mappings = CsvImportMappings.parse(JSON.parse(mappingJson));
  } catch {
    throw new AppError("BAD_REQUEST", "csvImportMappingInvalid", "VALIDATION_FAILED");
  }
  const file = form.get("file");
  // No file part, or an empty one: the spec's empty file.
  if (file === null || file === "") throw new AppError("BAD_REQUEST", "csvEmpty", "CSV_EMPTY");
  if (typeof file !== "string" && file.size > CSV_IMPORT_BYTES_MAX) {
    throw new AppError("PAYLOAD_TOO_LARGE", CSV_TOO_LARGE);
  }
  let csv: string;
  try {
    csv =
      typeof file === "string"
        ? file
        : new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
  } catch {
    throw new AppError("BAD_REQUEST", "csvParseFailed", "CSV_UNREADABLE");
  }
  // PostgreSQL's text holds no NUL character: such a file is not a CSV anyway.
  if (csv.includes("\u0000")) throw new AppError("BAD_REQUEST", "csvParseFailed", "CSV_UNREADABLE");
  return startCsvImport(app, userId, entity, csv, mappings, queue);
}

/** The record's checks: the entity's compiled schema from its file in the current version. */
async function schemaOf(app: App, entity: string) {
  const file = await entityFileOf(app, entity);
  return entitySchemaOf(entity, file.hash, file.content);
}

/**
 * Whether the text has a data row: a header line and one row with a value. Reads the first rows
 * only; a file whose first hundred rows are all blank is left to the job (which then imports none).
 */
function hasDataRow(text: string): boolean {
  const parsed = Papa.parse<Record<string, unknown>>(text, {
    header: true,
    preview: 100,
    skipEmptyLines: "greedy",
  });
  if (parsed.data.length >= 100) return true;
  return parsed.data.some((r) => Object.values(r).some((v) => String(v ?? "").trim() !== ""));
}

/** Refuses a file over the size cap, an empty one, and one without a data row (the spec's words). */
export function checkCsvText(csv: string): void {
  if (Buffer.byteLength(csv, "utf8") > CSV_IMPORT_BYTES_MAX) {
    throw new AppError("PAYLOAD_TOO_LARGE", "csvParseFailed");
  }
  if (csv.replace(/^\uFEFF/, "").trim() === "") throw new AppError("BAD_REQUEST", "csvEmpty", "CSV_EMPTY");
  if (!hasDataRow(csv)) throw new AppError("BAD_REQUEST", "csvNoRows", "CSV_NO_ROWS");
}

/**
 * Stores an import of `csv` into the entity (404 when the app has no such entity) and answers its
 * id; `queue` sends the job (lib/queue). Empty files and files without a data row are refused.
 */
export async function startCsvImport(
  app: App,
  userId: string,
  entity: string,
  csv: string,
  mappings: CsvMapping[],
  queue: (importId: string) => Promise<void>,
): Promise<{ importId: string }> {
  await schemaOf(app, entity);
  checkCsvText(csv);
  const imp = await createEntityImport({ appId: app.id, entity, creatorId: userId, mapping: mappings, csv });
  await queue(imp.id);
  return { importId: imp.id };
}

/** The import's state; the result's sentence once it ended. */
export function csvImportView(imp: EntityImport): CsvImportView {
  const message =
    imp.status === "failed"
      ? messages.csvImportFailed
      : imp.status !== "complete"
        ? undefined
        : imp.failed > 0
          ? fillTemplate(messages.csvImportPartial, { n: imp.failed, total: imp.total })
          : fillTemplate(messages.csvImportAll, { total: imp.total });
  return {
    id: imp.id,
    status: imp.status,
    total: imp.total,
    imported: imp.imported,
    failed: imp.failed,
    failedRows: imp.failedRows,
    ...(message === undefined ? {} : { message }),
  };
}

export async function readCsvImport(app: App, entity: string, importId: string): Promise<CsvImportView> {
  const imp = await findEntityImport(app.id, entity, importId);
  if (!imp) throw new AppError("NOT_FOUND", "csvImportNotFound", "IMPORT_NOT_FOUND");
  return csvImportView(imp);
}

/**
 * The job: reads the stored file again from its first row (a retry too), makes batches of rows and
 * writes each one not yet in. `finalAttempt`: a failure ends the import as failed rather than
 * being thrown for pg-boss to retry.
 *
 * Three things run at once, each on a core of its own when there are: the worker parses the next
 * piece of the file, this thread makes the rows records and checks them, and the database writes
 * the batch before (one batch under way at most, in order: batch n+1 is claimed after batch n).
 */
export async function runCsvImportJob(
  job: { importId: string },
  opts: { finalAttempt: boolean },
): Promise<void> {
  const imp = await findEntityImportById(job.importId);
  if (!imp || imp.status === "complete" || imp.status === "failed" || imp.csv === null) return;
  try {
    const app = await findAppById(imp.appId);
    if (!app) return;
    const schema = await schemaOf(app, imp.entity);
    const columns = importedColumns(CsvImportMappings.parse(imp.mapping));
    await setEntityImportStatus(imp.id, "importing");
    let batch = 0;
    let rowNumber = 0;
    let records: string[] = [];
    let failedRows: ImportFailedRow[] = [];
    let writing: Promise<unknown> = Promise.resolve();
    const flush = async () => {
      // The batch before is in first (its failure is thrown here).
      await writing;
      // Batches already in (an earlier attempt wrote them) are skipped by writeImportBatch.
      if (batch >= imp.batches) {
        writing = writeImportBatch(imp, batch, records, failedRows, CSV_IMPORT_FAILED_ROWS_KEPT);
        // Awaited by the next flush or at the end; until then its failure must not go unhandled.
        writing.catch(() => {});
      }
      batch++;
      records = [];
      failedRows = [];
    };
    try {
      await parseCsvRows(filePieces(imp.csv), async (rows) => {
        for (const data of rows) {
          rowNumber++;
          const row = rowRecord(data, columns, schema);
          if (row.ok) records.push(row.json);
          else failedRows.push({ row: rowNumber, reason: row.reason });
          if (records.length + failedRows.length >= CSV_IMPORT_BATCH_ROWS) await flush();
        }
      });
      if (records.length + failedRows.length > 0) await flush();
      await writing;
    } finally {
      // Whatever failed, no batch is still being written when the import is marked.
      await writing.catch(() => {});
    }
    await setEntityImportStatus(imp.id, "complete", { dropCsv: true });
  } catch (err) {
    // A file that cannot be parsed, a mapping that is not one, an entity gone: a retry fails again.
    const final =
      opts.finalAttempt ||
      err instanceof UnreadableFileError ||
      err instanceof z.ZodError ||
      err instanceof AppError;
    logError("csv import failed", { importId: imp.id, final, err });
    if (!final) throw err;
    await setEntityImportStatus(imp.id, "failed", { dropCsv: true });
  }
}

/**
 * The stored file as a stream of pieces: the worker parses one while the rows of the one before
 * are checked and written, and never holds more than a piece and its rows.
 */
function filePieces(csv: string): Readable {
  const bytes = Buffer.from(csv, "utf8");
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += CSV_IMPORT_PIECE_BYTES)
    pieces.push(bytes.subarray(at, at + CSV_IMPORT_PIECE_BYTES));
  return Readable.from(pieces);
}

/** The row's record as JSON text, checked against the schema, or why it fails. */
function rowRecord(
  data: Record<string, string>,
  columns: ReturnType<typeof importedColumns>,
  schema: Awaited<ReturnType<typeof schemaOf>>,
): { ok: true; json: string } | { ok: false; reason: string } {
  const converted = convertRow(data, columns);
  if ("problem" in converted)
    return { ok: false, reason: fillTemplate(messages[converted.problem.key], converted.problem.vars) };
  if (Object.keys(converted.fields).length === 0) return { ok: false, reason: messages.databaseRowEmpty };
  try {
    return { ok: true, json: checkedRecordJson(schema, converted.fields) };
  } catch (err) {
    if (err instanceof AppError) return { ok: false, reason: err.message };
    throw err;
  }
}
