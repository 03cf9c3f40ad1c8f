import "server-only";
import path from "node:path";
import { Readable } from "node:stream";
import type { MessageKey } from "@/lib/messages";
import { CappedWorker, IdleWorkers } from "@/lib/workers/capped-worker";
import { UnreadableFileError } from "../unreadable";
import type { PageContent } from "./page-text.mjs";

// Every document a data source brings (a Word file, a PDF, a CSV, a web page, a connector's file)
// is parsed by a worker thread (worker.mjs) with a heap of its own, capped, and a clock: a file
// that needs more memory or time than a real document ends the worker, not the server, whose
// event loop and heap the parsing never touches. The worker is a plain .mjs file found from the
// working directory, where `npm start`, `npm run worker` and the tests all run: the production
// build does not bundle it, and tsx and vitest need not compile it.

const WORKER_FILE = path.join(process.cwd(), "lib", "context", "parse", "worker.mjs");

/**
 * The worker's heap. mammoth builds a DOM of the document's XML (tens of bytes per byte, more for
 * many tiny elements): 256 MB reads a Word document of several MB of XML, a few hundred pages of
 * text, and two ingestions at a time (lib/jobs/worker.ts) stay well under a GB.
 */
export const PARSE_HEAP_MB = 256;

/**
 * The unpacked markup (XML) a Word file may hold: a 1,000-page text is about 10 MB of it. More is
 * a ZIP bomb, or a file whose DOM would not fit the heap anyway; refused before it is parsed.
 * Pictures and fonts are not counted: reading the text never unpacks them.
 */
export const DOCX_MARKUP_MAX = 24 * 1024 * 1024;

/**
 * How long the worker may take to answer (a whole file, or a piece of a CSV): PARSE_TIMEOUT_SECONDS,
 * 60 by default (a long PDF of real text takes a few seconds). Read each time, so tests set it.
 */
function parseTimeoutMs(): number {
  const raw = Number(process.env.PARSE_TIMEOUT_SECONDS);
  return (Number.isInteger(raw) && raw > 0 && raw <= 3600 ? raw : 60) * 1000;
}

/** The worker's refusals, as the item's error says them. */
const REASONS: Record<string, MessageKey> = {
  unreadable: "contextFileUnreadable",
  "too-large": "contextDocxTooLarge",
};

const tooComplex = (cause?: unknown) => new UnreadableFileError("contextFileTooComplex", { cause });

/** A worker for one document at a time, with the parsing's heap and clock. */
const startWorker = () =>
  new CappedWorker({
    file: WORKER_FILE,
    heapMb: PARSE_HEAP_MB,
    timeoutMs: parseTimeoutMs,
    limitError: tooComplex,
  });

// One that read a document well waits a little for the next (a crawl reads page after page).
const idle = new IdleWorkers(startWorker);

/** The value the worker answers for one document, or the reason it could not read it. */
async function parseOnce<T>(job: Record<string, unknown>, transfer?: ArrayBuffer[]): Promise<T> {
  const worker = idle.take();
  try {
    worker.post(job, transfer);
    const answer = await worker.next();
    if (!answer.ok) throw new UnreadableFileError(REASONS[answer.reason ?? ""] ?? "contextFileUnreadable");
    return answer.value as T;
  } finally {
    idle.giveBack(worker);
  }
}

/** Bytes the worker may take over (a copy when they are a view on a larger buffer). */
function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  if (
    bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength &&
    bytes.buffer instanceof ArrayBuffer
  )
    return bytes.buffer;
  return bytes.slice().buffer as ArrayBuffer;
}

/** A Word document's text. The bytes are handed over to the worker: not usable afterwards. */
export function parseDocx(bytes: Uint8Array): Promise<string> {
  const buffer = ownBuffer(bytes);
  return parseOnce({ op: "docx", bytes: buffer, markupLimit: DOCX_MARKUP_MAX }, [buffer]);
}

/** A PDF's text. The bytes are handed over to the worker: not usable afterwards. */
export function parsePdf(bytes: Uint8Array): Promise<string> {
  const buffer = ownBuffer(bytes);
  return parseOnce({ op: "pdf", bytes: buffer }, [buffer]);
}

/** What a fetched page says and where it links (lib/context/parse/page-text.mjs). */
export function parsePage(body: string, mediaType: string, url: string): Promise<PageContent> {
  return parseOnce({ op: "html", body, mediaType, url });
}

/** A data row of a CSV: { header: value }, and the line "header: value; ..." its chunks are cut from. */
export type CsvRow = { data: Record<string, string>; line: string };

/**
 * Parses a CSV stream in the worker (papaparse), one data row at a time (rows with no value are
 * skipped); answers how many rows it handed over. Memory stays flat whatever the file's size: the
 * worker asks for the input a piece at a time and sends the rows of each piece it parsed; it parses
 * one piece ahead of `onRow` (the database writes the previous rows meanwhile), no more.
 */
export async function parseCsvStream(
  body: ReadableStream<Uint8Array> | Readable,
  onRow: (row: CsvRow) => void | Promise<void>,
): Promise<number> {
  return streamCsv(body, true, async (rows) => {
    for (const row of rows as CsvRow[]) {
      const pending = onRow(row);
      if (pending) await pending;
    }
  });
}

/**
 * The same, each parsed piece's rows at once (a few thousand for pieces of 256 kB), as { header:
 * value } without their line: one call per piece rather than per row, and half as much to send.
 */
export function parseCsvRows(
  body: ReadableStream<Uint8Array> | Readable,
  onRows: (rows: Record<string, string>[]) => Promise<void>,
): Promise<number> {
  return streamCsv(body, false, (rows) =>
    onRows((rows as { data: Record<string, string> }[]).map((r) => r.data)),
  );
}

async function streamCsv(
  body: ReadableStream<Uint8Array> | Readable,
  lines: boolean,
  onRows: (rows: unknown[]) => Promise<void>,
): Promise<number> {
  const input = body instanceof Readable ? body : Readable.fromWeb(body as never);
  const pieces = input[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  const worker = startWorker();
  let count = 0;
  try {
    worker.post({ op: "csv", lines });
    for (;;) {
      const m = await worker.next();
      if (m.type === "pull") {
        const piece = await pieces.next();
        worker.post(piece.done ? { type: "end" } : { type: "chunk", bytes: piece.value });
      } else if (m.type === "rows") {
        // The worker parses the next piece while these rows are stored: one piece ahead at most.
        worker.post({ type: "resume" });
        const rows = m.rows as unknown[];
        await onRows(rows);
        count += rows.length;
      } else if (m.type === "done") {
        return count;
      } else {
        throw new UnreadableFileError(REASONS[m.reason ?? ""] ?? "contextFileUnreadable");
      }
    }
  } finally {
    worker.end();
    // Stopped early (onRows threw, or the worker failed): the file is not read on.
    input.destroy();
  }
}
