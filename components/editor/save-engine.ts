import { APP_SAVE_DEBOUNCE_MS, APP_SAVE_RETRY_MAX_MS, APP_SAVE_RETRY_MS } from "@/lib/constants";

// The saving engine of the editor, free of React and of fetch so its rules can be tested alone
// ("Saving never loses work"):
// - edits merge into one pending partial object; it is sent APP_SAVE_DEBOUNCE_MS after the last
//   edit, with the revision the saved value came from;
// - one request per record is in flight at a time; edits made meanwhile wait and go after it,
//   on the revision it answered;
// - a network error or 5xx keeps the edits and retries with a doubling backoff (and at once when
//   retryNow() is called, e.g. on the browser's `online` event);
// - a rule error (other 4xx) keeps the edits and waits for the builder to change something:
//   resending the same refused edit would only fail again;
// - a 409 keeps the edits and holds everything until the builder chooses between their version
//   and theirs: nothing is ever overwritten silently.

/** What the server answered to one save, as the request layer classifies it. */
export type SaveOutcome<V> =
  | { ok: true; revision: number; value: V }
  | { ok: false; kind: "conflict"; current: { revision: number; value: V } }
  | { ok: false; kind: "rule"; message: string }
  | { ok: false; kind: "transient"; message?: string };

export type SaveFailure = {
  /** transient: retried on its own; rule: waits for the builder to change the edit. */
  kind: "transient" | "rule";
  message: string;
};

/** Another tab or person saved first: both versions, for the builder to choose. */
export type SaveConflict<V> = {
  theirs: V;
  theirRevision: number;
  /** Every unsaved edit; "Keep my version" sends all of them on top of their revision. */
  mine: Partial<V>;
  /** The edited keys whose value differs from theirs: what the dialog shows. */
  keys: (keyof V & string)[];
};

export type SaverState<V> = {
  revision: number;
  /** The value as the server last confirmed it. */
  saved: V;
  /** What the editor shows: the saved value with the unsaved edits on top. */
  value: V;
  /** Unsaved edits, in flight or waiting. */
  unsaved: Partial<V>;
  /** Something is not saved yet (waiting, in flight, failed, or in conflict). */
  dirty: boolean;
  /** A request is in flight. */
  saving: boolean;
  error: SaveFailure | null;
  conflict: SaveConflict<V> | null;
  /** When the next automatic retry of a failed save happens (epoch ms), if one is planned. */
  retryAt: number | null;
};

export type SaverOptions<V> = {
  revision: number;
  value: V;
  send: (patch: Partial<V>, baseRevision: number) => Promise<SaveOutcome<V>>;
  /** The message of a failed (transient) save of this kind of record. */
  failureMessage: string;
  debounceMs?: number;
  retryMs?: number;
  retryMaxMs?: number;
  now?: () => number;
};

/** Deep equality of JSON values, ignoring the order of object keys. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  }
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return (
    ka.length === kb.length &&
    ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/** Later edits win key by key (a partial save replaces whole keys, as the server does). */
export function mergePatch<V>(...patches: (Partial<V> | null | undefined)[]): Partial<V> {
  return Object.assign({}, ...patches.filter(Boolean)) as Partial<V>;
}

/** The wait before retry number `attempt` (1-based): retryMs, doubling, at most retryMaxMs. */
export function retryDelay(
  attempt: number,
  retryMs = APP_SAVE_RETRY_MS,
  retryMaxMs = APP_SAVE_RETRY_MAX_MS,
): number {
  return Math.min(retryMs * 2 ** Math.max(0, attempt - 1), retryMaxMs);
}

/** The edited keys whose value differs from theirs. */
export function conflictingKeys<V>(mine: Partial<V>, theirs: V): (keyof V & string)[] {
  return (Object.keys(mine) as (keyof V & string)[]).filter((k) => !sameValue(mine[k], theirs[k]));
}

export class RecordSaver<V extends object> {
  private revision: number;
  private saved: V;
  /** Edits not sent yet. */
  private pending: Partial<V> = {};
  /** Edits of the request in flight. */
  private inFlight: Partial<V> | null = null;
  private error: SaveFailure | null = null;
  /** Their version, while the builder has not chosen yet. */
  private conflict: { theirs: V; theirRevision: number } | null = null;
  /** A rule error waits for a new edit (or an explicit retry) before sending again. */
  private blocked = false;
  /** flush() asked: send as soon as possible, without the debounce. */
  private urgent = false;
  private attempt = 0;
  private retryAt: number | null = null;
  private lastEditAt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  private waiters: ((saved: boolean) => void)[] = [];
  private listeners = new Set<() => void>();
  private snapshot: SaverState<V>;

  private readonly send: SaverOptions<V>["send"];
  private readonly failureMessage: string;
  private readonly debounceMs: number;
  private readonly retryMs: number;
  private readonly retryMaxMs: number;
  private readonly now: () => number;

  constructor(options: SaverOptions<V>) {
    this.revision = options.revision;
    this.saved = options.value;
    this.send = options.send;
    this.failureMessage = options.failureMessage;
    this.debounceMs = options.debounceMs ?? APP_SAVE_DEBOUNCE_MS;
    this.retryMs = options.retryMs ?? APP_SAVE_RETRY_MS;
    this.retryMaxMs = options.retryMaxMs ?? APP_SAVE_RETRY_MAX_MS;
    this.now = options.now ?? Date.now;
    this.snapshot = this.buildSnapshot();
  }

  // ---- reading ----

  getSnapshot = (): SaverState<V> => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  // ---- editing ----

  /** Merges an edit into the unsaved ones and (re)starts the debounce. */
  edit = (patch: Partial<V>): void => {
    const keys = Object.keys(patch) as (keyof V)[];
    if (keys.length === 0) return;
    const next = mergePatch<V>(this.pending, patch);
    // An edit back to the saved value (a switch flipped twice) leaves nothing to save, unless a
    // request in flight is changing that key.
    for (const key of keys) {
      if (!(this.inFlight && key in this.inFlight) && sameValue(next[key], this.saved[key])) delete next[key];
    }
    this.pending = next;
    this.lastEditAt = this.now();
    this.blocked = false;
    this.update();
    this.schedule();
  };

  /** Drops unsaved edits (all, or of these keys) back to the saved value. */
  revert = (keys?: (keyof V)[]): void => {
    if (!keys) this.pending = {};
    else {
      const next = { ...this.pending };
      for (const key of keys) delete next[key];
      this.pending = next;
    }
    if (this.error?.kind === "rule") this.error = null;
    this.blocked = false;
    this.update();
    this.schedule();
    this.settleWaiters();
  };

  /** Saves now. True once everything is saved; false when a save failed or waits for a choice. */
  flush = (): Promise<boolean> => {
    if (this.conflict) return Promise.resolve(false);
    if (!this.isDirty()) return Promise.resolve(true);
    const done = new Promise<boolean>((resolve) => this.waiters.push(resolve));
    this.urgent = true;
    this.blocked = false;
    this.retryAt = null;
    this.schedule();
    return done;
  };

  /** Retries a failed save at once (the Try again button, the browser coming back online). */
  retryNow = (): void => {
    if (!this.error || this.conflict) return;
    this.urgent = true;
    this.blocked = false;
    this.retryAt = null;
    this.schedule();
  };

  /**
   * "mine": send every unsaved edit on top of their revision. "theirs": take their version and
   * drop the unsaved edits.
   */
  resolveConflict = (choice: "mine" | "theirs"): void => {
    const conflict = this.conflict;
    if (!conflict) return;
    this.conflict = null;
    this.saved = conflict.theirs;
    this.revision = conflict.theirRevision;
    this.error = null;
    if (choice === "theirs") this.pending = {};
    else this.urgent = true;
    this.update();
    this.schedule();
    this.settleWaiters();
  };

  /** Starts (again) after stop(): a remount keeps the same saver. */
  start = (): void => {
    this.stopped = false;
    this.schedule();
  };

  /**
   * The editor goes away: timers end, and edits still waiting for their debounce are sent once
   * (the builder was warned; sending them is still better than dropping them).
   */
  stop = (): void => {
    this.stopped = true;
    this.clearTimer();
    if (!this.inFlight && !this.conflict && !this.blocked && Object.keys(this.pending).length > 0) {
      void this.sendPending();
    }
  };

  // ---- the queue ----

  private isDirty(): boolean {
    return this.inFlight !== null || Object.keys(this.pending).length > 0;
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Plans the next request: after the debounce, or the retry backoff, or at once when urgent. */
  private schedule(): void {
    this.clearTimer();
    if (this.stopped || this.inFlight || this.conflict || this.blocked) return;
    if (Object.keys(this.pending).length === 0) return;
    const now = this.now();
    // A flush() caller waits: edits made while its request was in flight go at once too.
    const at =
      this.urgent || this.waiters.length > 0
        ? now
        : Math.max(this.lastEditAt + this.debounceMs, this.retryAt ?? 0);
    this.timer = setTimeout(
      () => {
        this.timer = null;
        void this.sendPending();
      },
      Math.max(0, at - now),
    );
  }

  private async sendPending(): Promise<void> {
    if (this.inFlight || this.conflict || Object.keys(this.pending).length === 0) return;
    const patch = this.pending;
    const baseRevision = this.revision;
    this.inFlight = patch;
    this.pending = {};
    this.urgent = false;
    this.update();

    let outcome: SaveOutcome<V>;
    try {
      outcome = await this.send(patch, baseRevision);
    } catch {
      outcome = { ok: false, kind: "transient" };
    }
    this.inFlight = null;

    if (outcome.ok) {
      this.revision = outcome.revision;
      this.saved = outcome.value;
      // Edits made meanwhile that the saved value already has (typed back) need no request.
      const rest = { ...this.pending };
      for (const key of Object.keys(rest) as (keyof V)[])
        if (sameValue(rest[key], outcome.value[key])) delete rest[key];
      this.pending = rest;
      this.error = null;
      this.attempt = 0;
      this.retryAt = null;
    } else {
      // Whatever happened, the edits stay: the newer ones win over those that were sent.
      this.pending = mergePatch<V>(patch, this.pending);
      if (outcome.kind === "conflict") this.openConflict(outcome.current);
      else if (outcome.kind === "rule") {
        this.error = { kind: "rule", message: outcome.message };
        this.blocked = true;
        this.attempt = 0;
        this.retryAt = null;
      } else {
        this.attempt += 1;
        this.retryAt = this.now() + retryDelay(this.attempt, this.retryMs, this.retryMaxMs);
        this.error = { kind: "transient", message: outcome.message || this.failureMessage };
      }
    }
    this.update();
    this.schedule();
    this.settleWaiters(!outcome.ok);
  }

  private openConflict(current: { revision: number; value: V }): void {
    const keys = conflictingKeys(this.pending, current.value);
    if (keys.length === 0) {
      // They saved exactly what we meant to: nothing to choose, nothing lost.
      this.saved = current.value;
      this.revision = current.revision;
      this.pending = {};
      return;
    }
    this.conflict = { theirs: current.value, theirRevision: current.revision };
    this.error = null;
    this.retryAt = null;
    this.attempt = 0;
  }

  /** Answers flush() callers: true once clean, false as soon as a save failed. */
  private settleWaiters(failed = false): void {
    if (this.waiters.length === 0) return;
    const clean = !this.isDirty() && !this.conflict;
    if (!clean && !failed && !this.conflict && !this.blocked) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve(clean);
  }

  private buildSnapshot(): SaverState<V> {
    const unsaved = mergePatch<V>(this.inFlight, this.pending);
    return {
      revision: this.revision,
      saved: this.saved,
      value: { ...this.saved, ...unsaved },
      unsaved,
      dirty: this.isDirty() || this.conflict !== null,
      saving: this.inFlight !== null,
      error: this.error,
      // Edits made while the dialog is open join "mine".
      conflict: this.conflict
        ? { ...this.conflict, mine: this.pending, keys: conflictingKeys(this.pending, this.conflict.theirs) }
        : null,
      retryAt: this.retryAt,
    };
  }

  private update(): void {
    this.snapshot = this.buildSnapshot();
    for (const listener of this.listeners) listener();
  }
}
