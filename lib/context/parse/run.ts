import "server-only";
import path from "node:path";
import { Readable } from "node:stream";
import { Worker } from "node:worker_threads";
import type { MessageKey } from "@/lib/messages";
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

type WorkerMessage = { ok?: boolean; value?: unknown; reason?: string; type?: string; rows?: unknown[] };

/** One worker, one document at a time: its messages in order, each awaited within the time limit. */
class ParseWorker {
  readonly worker: Worker;
  private readonly inbox: WorkerMessage[] = [];
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  private ended = false;

  constructor() {
    this.worker = new Worker(WORKER_FILE, {
      // Plain Node: not tsx's loader nor the react-server condition of `npm run worker`.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: PARSE_HEAP_MB, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
      // The parsers' chatter (pdf.js warns about every oddity of a file) is not the server's log.
      stdout: true,
    });
    this.worker.stdout.resume();
    this.worker.on("message", (m: WorkerMessage) => {
      this.inbox.push(m);
      this.signal();
    });
    this.worker.on("error", (err: Error & { code?: string }) =>
      this.fail(err.code === "ERR_WORKER_OUT_OF_MEMORY" ? tooComplex(err) : err),
    );
    this.worker.on("exit", (code) => this.fail(new Error(`the parsing worker exited (${code})`)));
  }

  post(message: unknown, transfer?: ArrayBuffer[]) {
    this.worker.postMessage(message, transfer);
  }

  /** The worker's next message; past the time limit the worker is ended and the file too complex. */
  async next(): Promise<WorkerMessage> {
    for (;;) {
      const m = this.inbox.shift();
      if (m) return m;
      if (this.failure) throw this.failure;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await new Promise<boolean>((resolve) => {
        this.wake = () => resolve(false);
        timer = setTimeout(() => resolve(true), parseTimeoutMs());
      });
      clearTimeout(timer);
      this.wake = undefined;
      if (timedOut && this.inbox.length === 0 && !this.failure) {
        this.fail(tooComplex());
        this.end();
      }
    }
  }

  /** Whether it may read another document: it answered every message, and did not fail. */
  get reusable(): boolean {
    return !this.ended && !this.failure && this.inbox.length === 0;
  }

  end() {
    this.ended = true;
    void this.worker.terminate();
  }

  private fail(err: Error) {
    if (this.ended && !(err instanceof UnreadableFileError)) return;
    this.failure ??= err;
    this.signal();
  }

  private signal() {
    this.wake?.();
  }
}

// Starting a worker loads its parsers anew (a second or more on a busy machine): one that read
// a document well waits a little for the next (a crawl reads page after page), unreferenced, so
// it never keeps a process alive.
const IDLE_MS = 30_000;
const IDLE_MAX = 2;
const idle: { worker: ParseWorker; timer: NodeJS.Timeout }[] = [];

function takeWorker(): ParseWorker {
  for (let kept = idle.pop(); kept; kept = idle.pop()) {
    clearTimeout(kept.timer);
    // One that died while it waited is not used.
    if (!kept.worker.reusable) continue;
    kept.worker.worker.ref();
    return kept.worker;
  }
  return new ParseWorker();
}

function giveBack(worker: ParseWorker) {
  if (!worker.reusable || idle.length >= IDLE_MAX) return worker.end();
  worker.worker.unref();
  const kept = {
    worker,
    timer: setTimeout(() => {
      idle.splice(idle.indexOf(kept), 1);
      worker.end();
    }, IDLE_MS).unref(),
  };
  idle.push(kept);
}

/** The value the worker answers for one document, or the reason it could not read it. */
async function parseOnce<T>(job: Record<string, unknown>, transfer?: ArrayBuffer[]): Promise<T> {
  const worker = takeWorker();
  try {
    worker.post(job, transfer);
    const answer = await worker.next();
    if (!answer.ok) throw new UnreadableFileError(REASONS[answer.reason ?? ""] ?? "contextFileUnreadable");
    return answer.value as T;
  } finally {
    giveBack(worker);
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
  const worker = new ParseWorker();
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
