import "server-only";
import { Worker } from "node:worker_threads";

// A worker thread with a heap of its own, capped, and a clock: work on untrusted input (a
// document, an app's code) that needs more memory or time than it should ends the worker, not the
// server, whose event loop and heap the work never touches. Its messages are read in order, each
// awaited within the time limit. Used by the parsing of data sources (lib/context/parse/run.ts)
// and the validation of space apps (lib/validation/run.ts); each has its own plain .mjs file,
// found from the working directory.

export type CappedWorkerOptions = {
  /** The worker's module: a plain .mjs file (not bundled by the production build). */
  file: string;
  heapMb: number;
  /** How long one message may take; read each time, so tests may change it. */
  timeoutMs: () => number;
  /** The error of a worker past its memory or time limit (`cause`: the worker's own error, if any). */
  limitError: (cause?: unknown) => Error;
};

export type WorkerMessage = {
  ok?: boolean;
  value?: unknown;
  reason?: string;
  type?: string;
  rows?: unknown[];
};

export class CappedWorker {
  readonly worker: Worker;
  private readonly inbox: WorkerMessage[] = [];
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  private ended = false;
  private readonly limitErrors = new WeakSet<Error>();

  constructor(private readonly options: CappedWorkerOptions) {
    this.worker = new Worker(options.file, {
      // Plain Node: not tsx's loader nor the react-server condition of `npm run worker`.
      execArgv: [],
      resourceLimits: {
        maxOldGenerationSizeMb: options.heapMb,
        maxYoungGenerationSizeMb: 32,
        stackSizeMb: 4,
      },
      // The libraries' chatter is not the server's log.
      stdout: true,
    });
    this.worker.stdout.resume();
    this.worker.on("message", (m: WorkerMessage) => {
      this.inbox.push(m);
      this.signal();
    });
    this.worker.on("error", (err: Error & { code?: string }) =>
      this.fail(err.code === "ERR_WORKER_OUT_OF_MEMORY" ? this.limit(err) : err),
    );
    this.worker.on("exit", (code) => this.fail(new Error(`the worker exited (${code})`)));
  }

  post(message: unknown, transfer?: ArrayBuffer[]) {
    this.worker.postMessage(message, transfer);
  }

  /** The worker's next message; past the time limit the worker is ended with the limit error. */
  async next(): Promise<WorkerMessage> {
    for (;;) {
      const m = this.inbox.shift();
      if (m) return m;
      if (this.failure) throw this.failure;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await new Promise<boolean>((resolve) => {
        this.wake = () => resolve(false);
        timer = setTimeout(() => resolve(true), this.options.timeoutMs());
      });
      clearTimeout(timer);
      this.wake = undefined;
      if (timedOut && this.inbox.length === 0 && !this.failure) {
        this.fail(this.limit());
        this.end();
      }
    }
  }

  /** Whether it may take another job: it answered every message, and did not fail. */
  get reusable(): boolean {
    return !this.ended && !this.failure && this.inbox.length === 0;
  }

  end() {
    this.ended = true;
    void this.worker.terminate();
  }

  private limit(cause?: unknown): Error {
    const err = this.options.limitError(cause);
    this.limitErrors.add(err);
    return err;
  }

  private fail(err: Error) {
    if (this.ended && !this.limitErrors.has(err)) return;
    this.failure ??= err;
    this.signal();
  }

  private signal() {
    this.wake?.();
  }
}

/**
 * Workers that finished a job well, kept a little for the next (starting one loads its libraries
 * anew, a second or more on a busy machine), unreferenced, so they never keep a process alive.
 */
export class IdleWorkers {
  private readonly idle: { worker: CappedWorker; timer: NodeJS.Timeout }[] = [];

  constructor(
    private readonly start: () => CappedWorker,
    private readonly max = 2,
    private readonly idleMs = 30_000,
  ) {}

  take(): CappedWorker {
    for (let kept = this.idle.pop(); kept; kept = this.idle.pop()) {
      clearTimeout(kept.timer);
      // One that died while it waited is not used.
      if (!kept.worker.reusable) continue;
      kept.worker.worker.ref();
      return kept.worker;
    }
    return this.start();
  }

  giveBack(worker: CappedWorker) {
    if (!worker.reusable || this.idle.length >= this.max) return worker.end();
    worker.worker.unref();
    const kept = {
      worker,
      timer: setTimeout(() => {
        this.idle.splice(this.idle.indexOf(kept), 1);
        worker.end();
      }, this.idleMs).unref(),
    };
    this.idle.push(kept);
  }
}
