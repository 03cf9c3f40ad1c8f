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
 * Answers how many rows it handed over. The bytes are decoded before papaparse sees them, so a
 * character split across two reads stays whole.
 *
 * Memory stays flat whatever the file's size: papaparse reads the input itself and hands over the
 * rows of each piece it parsed; once CSV_PARSED_AHEAD rows wait for `onRow` the input is paused,
 * and resumed when they are taken. Parsing goes on while `onRow` awaits (the database writes the
 * previous rows meanwhile). Not papaparse's Duplex stream read with `for await`: it pauses its
 * parser every 16 rows (its readable buffer) and parses the rest of the piece again on resume,
 * which made parsing 5× slower than papaparse alone.
 */
export async function parseCsvStream(
  body: ReadableStream<Uint8Array> | Readable,
  onRow: (row: CsvRow) => void | Promise<void>,
): Promise<number> {
  const input = (body instanceof Readable ? body : Readable.fromWeb(body as never)).setEncoding("utf8");
  let parsed: Record<string, unknown>[] = [];
  let ended = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const signal = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const fail = (error: unknown) => {
    failure ??= { error };
    signal();
  };
  const throwIfFailed = () => {
    if (failure) throw failure.error;
  };
  // papaparse reports a read error to `error` and then stops listening: this listener stays, so
  // an error the input emits later (while it is being destroyed) is never unhandled.
  input.on("error", fail);
  Papa.parse<Record<string, unknown>>(input, {
    header: true,
    skipEmptyLines: "greedy",
    // A byte order mark is not part of the first column's name.
    transformHeader: (name: string, i: number) => (i === 0 ? name.replace(/^\uFEFF/, "") : name),
    chunk: (results) => {
      for (const record of results.data) parsed.push(record);
      if (parsed.length >= CSV_PARSED_AHEAD) input.pause();
      signal();
    },
    complete: () => {
      ended = true;
      signal();
    },
    error: fail,
  });
  let count = 0;
  try {
    for (;;) {
      throwIfFailed();
      if (parsed.length === 0) {
        if (ended) break;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        continue;
      }
      const batch = parsed;
      parsed = [];
      if (input.isPaused() && !input.destroyed) input.resume();
      for (const record of batch) {
        const row = csvRow(record);
        if (!row) continue;
        const pending = onRow(row);
        if (pending) await pending;
        count++;
        throwIfFailed();
      }
    }
  } finally {
    // Stopped early (onRow threw, or the input failed): the file is not read on.
    input.destroy();
  }
  return count;
}

/** Rows parsed ahead of `onRow` at most (plus those of one piece of input) before the input waits. */
const CSV_PARSED_AHEAD = 200;

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
