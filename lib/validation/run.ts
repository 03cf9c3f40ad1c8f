import "server-only";
import path from "node:path";
import { VALIDATION_HEAP_MB, VALIDATION_TIMEOUT_MS } from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { CappedWorker, IdleWorkers } from "@/lib/workers/capped-worker";

// An app's code and entity schemas are read (parsed, linted, compiled as JSON Schema) by a worker
// thread (worker.mjs) with a heap of its own, capped, and a clock: code that needs more memory or
// time than a real app ends the worker with a clear error, never the server, whose event loop and
// heap the parsing never touches. Found from the working directory, like the parsing worker of
// data sources (lib/context/parse/run.ts), for the same reasons.

const WORKER_FILE = path.join(process.cwd(), "lib", "validation", "worker.mjs");

/**
 * How long the worker may take: VALIDATION_TIMEOUT_MS, or the VALIDATION_TIMEOUT_MS variable when
 * set (read each time, so tests set it). A cold worker loads ESLint first, a second or two.
 */
function timeoutMs(): number {
  const raw = Number(process.env.VALIDATION_TIMEOUT_MS);
  return Number.isInteger(raw) && raw > 0 && raw <= 600_000 ? raw : VALIDATION_TIMEOUT_MS;
}

/** Past its time or heap: the validation stops, and says so. */
export class ValidationLimitError extends AppError {}

function limitError(cause?: unknown): Error {
  const outOfMemory = cause !== undefined;
  const err = outOfMemory
    ? new ValidationLimitError("BAD_REQUEST", "validationTooComplex", "VALIDATION_TOO_COMPLEX")
    : new ValidationLimitError(
        "TIMED_OUT",
        { key: "validationTimedOut", vars: { seconds: Math.round(timeoutMs() / 100) / 10 } },
        "VALIDATION_TIMED_OUT",
      );
  if (cause) err.cause = cause;
  return err;
}

const startWorker = () =>
  new CappedWorker({ file: WORKER_FILE, heapMb: VALIDATION_HEAP_MB, timeoutMs, limitError });

// A worker that checked an app well waits a little for the next (a Re-validate, a repair's loop).
const idle = new IdleWorkers(startWorker, 1);

export type SourceText = { path: string; content: string };

/** What the worker found, before it is told as the answer's issues. */
export type WorkerIssue = {
  detectorId: string;
  severity: "error" | "warning";
  message: string;
  path: string;
  line: number;
};

/** Lints `lint` (ESLint: hooks rules, undefined names) and checks `entities` as JSON Schema. */
export async function checkInWorker(lint: SourceText[], entities: SourceText[]): Promise<WorkerIssue[]> {
  const worker = idle.take();
  try {
    worker.post({ op: "check", lint, entities });
    const answer = await worker.next();
    // A checker that threw on this code (a stack too deep for its parser): the code is the problem.
    if (!answer.ok)
      throw new ValidationLimitError("BAD_REQUEST", "validationTooComplex", "VALIDATION_TOO_COMPLEX");
    return (answer.value as { issues: WorkerIssue[] }).issues;
  } finally {
    idle.giveBack(worker);
  }
}
