import "server-only";
import type { Readable } from "node:stream";
import type { ContextItem } from "@/db/schema";
import { storage } from "@/lib/storage";
import type { ContextFileKind } from "./file-type";
import { DOCX_MARKUP_MAX, parseCsvStream, parseDocx, parsePdf } from "./parse/run";
import { statedMarkupSize } from "./parse/zip.mjs";
import { UnreadableFileError } from "./unreadable";

// The text of stored and fetched files. Every parser runs in the parsing worker
// (lib/context/parse/run.ts), never on the server's thread.

export { type CsvRow, parseCsvStream } from "./parse/run";
export { UnreadableFileError } from "./unreadable";

/** A file's text; a CSV's also as its rows and their lines ("header: value; ..."), chunked whole. */
export type ExtractedFile = { text: string; rows?: Record<string, string>[]; lines?: string[] };

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

/** The stored file's bytes, whole (a PDF or a Word file: their parsers need them all). */
export async function readStoredFile(item: Pick<ContextItem, "fileKey">): Promise<Uint8Array> {
  return new Uint8Array(await new Response(await openStoredFile(item)).arrayBuffer());
}

/**
 * The bytes a file's ingestion is charged for: a Word file by the markup it unpacks to (what the
 * parser reads, as the archive states it; the worker checks the statement) when that is more than
 * the upload, anything else by its size. Throws UnreadableFileError for a Word file past the cap.
 */
export function processedBytes(kind: ContextFileKind | undefined, bytes: Uint8Array): number {
  if (kind !== "docx") return bytes.byteLength;
  try {
    return Math.max(bytes.byteLength, statedMarkupSize(bytes, DOCX_MARKUP_MAX));
  } catch (err) {
    const reason = (err as Error).message === "too-large" ? "contextDocxTooLarge" : "contextFileUnreadable";
    throw new UnreadableFileError(reason, { cause: err });
  }
}

/**
 * The text of a stored file's bytes (a CSV's rows too). The ingestion job streams a CSV instead
 * (lib/context/ingest-csv.ts). A file that cannot be parsed throws UnreadableFileError. The bytes
 * are handed over to the parsing worker.
 */
export async function extractFileText(
  kind: ContextFileKind | undefined,
  bytes: Uint8Array,
): Promise<ExtractedFile> {
  if (kind === "csv") return parseCsv(new Blob([bytes as Uint8Array<ArrayBuffer>]).stream());
  if (kind === "pdf") return { text: await parsePdf(bytes) };
  if (kind === "docx") return { text: await parseDocx(bytes) };
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
  return { text: lines.join("\n"), rows, lines };
}
