import "server-only";
import { Readable } from "node:stream";
import Papa from "papaparse";
import type { ContextItem } from "@/db/schema";
import type { MessageKey } from "@/lib/messages";
import { storage } from "@/lib/storage";
import { type ContextFileKind, checkZipUnpackedSize } from "./file-type";

/** Word documents unpack to a few times their size; past this one is a ZIP bomb, not a document. */
const DOCX_UNPACKED_MAX = 200 * 1024 * 1024;

/** A file that will never be read, however often it is tried: the job ends in Error at once. */
export class UnreadableFileError extends Error {
  constructor(
    readonly reason: MessageKey,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
    this.name = "UnreadableFileError";
  }
}

export type ExtractedFile = { text: string; rows?: Record<string, string>[] };

/** The kind of an item's stored file, from its key's extension (set by its upload, from the bytes). */
export function storedFileKind(item: Pick<ContextItem, "fileKey">): ContextFileKind | undefined {
  const key = item.fileKey;
  return key ? (key.slice(key.lastIndexOf(".") + 1) as ContextFileKind) : undefined;
}

/** The stored file's bytes as a stream; a file gone from storage is never coming back. */
export async function openStoredFile(
  item: Pick<ContextItem, "fileKey">,
): Promise<ReadableStream<Uint8Array>> {
  const object = await storage().get(item.fileKey!);
  if (!object) throw new UnreadableFileError("contextFileUnreadable");
  return object.body;
}

/**
 * The text of an item's stored file (and a CSV's rows), whole. The ingestion job streams a CSV
 * instead (lib/context/ingest-csv.ts); this suits files known to be small. A storage failure is
 * thrown as it is (a retry may cure it); a file that cannot be parsed throws UnreadableFileError.
 */
export async function extractFileText(item: Pick<ContextItem, "fileKey">): Promise<ExtractedFile> {
  const kind = storedFileKind(item);
  const body = await openStoredFile(item);
  if (kind === "csv") return parseCsv(body);
  const bytes = new Uint8Array(await new Response(body).arrayBuffer());
  if (kind === "pdf") return { text: await pdfText(bytes) };
  if (kind === "docx") return { text: await docxText(bytes) };
  // mammoth reads only the ZIP-based .docx; the old binary .doc format has no reader here.
  throw new UnreadableFileError("contextDocUnreadable");
}

/** A whole CSV's text (its rows' lines) and rows; UnreadableFileError when it has no data row. */
export async function parseCsv(body: ReadableStream<Uint8Array> | Readable): Promise<ExtractedFile> {
  const lines: string[] = [];
  const rows: Record<string, string>[] = [];
  const count = await parseCsvStream(body, (row) => {
    rows.push(row.data);
    lines.push(row.line);
  });
  if (count === 0) throw new UnreadableFileError("contextCsvNoRows");
  return { text: lines.join("\n"), rows };
}

/** A data row of a CSV: { header: value }, and the line "header: value; ..." its chunks are cut from. */
export type CsvRow = { data: Record<string, string>; line: string };

/**
 * Parses a CSV stream with papaparse, one data row at a time (rows with no value are skipped).
 * The next rows are parsed only once `onRow` (and the promise it may answer) is done: papaparse's
 * stream pauses when its output is not read, and the input then waits, so memory holds a few rows
 * whatever the file's size. Answers how many rows it handed over. The bytes are decoded before
 * papaparse sees them, so a character split across two reads stays whole.
 */
export async function parseCsvStream(
  body: ReadableStream<Uint8Array> | Readable,
  onRow: (row: CsvRow) => void | Promise<void>,
): Promise<number> {
  const input = (body instanceof Readable ? body : Readable.fromWeb(body as never)).setEncoding("utf8");
  const parser = Papa.parse(Papa.NODE_STREAM_INPUT, {
    header: true,
    skipEmptyLines: "greedy",
    // A byte order mark is not part of the first column's name.
    transformHeader: (name: string, i: number) => (i === 0 ? name.replace(/^\uFEFF/, "") : name),
  });
  input.once("error", (err) => parser.destroy(err));
  input.pipe(parser);
  let count = 0;
  try {
    for await (const record of parser as AsyncIterable<Record<string, unknown>>) {
      const row = csvRow(record);
      if (!row) continue;
      await onRow(row);
      count++;
    }
  } finally {
    // Stopped early (onRow threw): the file is not read on.
    input.unpipe(parser);
    input.destroy();
  }
  return count;
}

function csvRow(record: Record<string, unknown>): CsvRow | undefined {
  const data: Record<string, string> = {};
  const parts: string[] = [];
  for (const [name, value] of Object.entries(record)) {
    // Cells beyond the header's columns come under "__parsed_extra" as an array.
    const text = Array.isArray(value) ? value.join(", ") : String(value ?? "");
    data[name] = text;
    if (text.trim()) parts.push(`${name}: ${text}`);
  }
  return parts.length ? { data, line: parts.join("; ") } : undefined;
}

export async function pdfText(bytes: Uint8Array): Promise<string> {
  const { extractText } = await import("unpdf");
  try {
    return (await extractText(bytes, { mergePages: true })).text;
  } catch (err) {
    throw new UnreadableFileError("contextFileUnreadable", { cause: err });
  }
}

export async function docxText(bytes: Uint8Array): Promise<string> {
  try {
    checkZipUnpackedSize(bytes, DOCX_UNPACKED_MAX);
  } catch (err) {
    const reason = (err as Error).message === "too-large" ? "contextDocxTooLarge" : "contextFileUnreadable";
    throw new UnreadableFileError(reason, { cause: err });
  }
  const mammoth = (await import("mammoth")).default;
  try {
    return (await mammoth.extractRawText({ buffer: Buffer.from(bytes) })).value;
  } catch (err) {
    throw new UnreadableFileError("contextFileUnreadable", { cause: err });
  }
}
