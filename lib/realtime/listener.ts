import "server-only";
import pg from "pg";
import { logError } from "@/lib/log";

/**
 * One LISTEN connection per process, shared by every subscriber (a browser's event stream is a
 * subscriber, not a connection). Notifications are fanned out in-process by channel. The
 * connection is opened with the first subscriber and closed with the last; when it drops it is
 * opened again with backoff and LISTENs again, and subscribers are told to resync, since
 * notifications sent while it was down are lost.
 */

export type Subscriber = {
  /** Called with each notification's payload on the channel. */
  onMessage: (payload: string) => void;
  /** Called after the connection came back: anything sent meanwhile was missed. */
  onResync?: () => void;
};

export type Subscription = {
  /** Resolves once the channel is LISTENed to (or the connection failed and is being retried). */
  ready: Promise<void>;
  unsubscribe: () => void;
};

type State = {
  client?: pg.Client;
  /** the backend process of the connection, for diagnostics and tests */
  pid?: number;
  connecting?: Promise<void>;
  subs: Map<string, Set<Subscriber>>;
  attempt: number;
  retry?: NodeJS.Timeout;
  /** a reconnect (not the first connection) is under way: subscribers resync once it is back */
  resync: boolean;
};

// Survives Next's hot reload in development, so a reload does not open a second connection.
const g = globalThis as { __builderRealtime?: State };
g.__builderRealtime ??= { subs: new Map(), attempt: 0, resync: false };
const state = g.__builderRealtime;

const BACKOFF_MIN_MS = 250;
const BACKOFF_MAX_MS = 15_000;
// Channel names are put into the LISTEN statement; only plain identifiers are allowed.
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;
/** How the connection names itself in pg_stat_activity. */
export const REALTIME_APPLICATION_NAME = "builder-realtime";

export function subscribe(channel: string, subscriber: Subscriber): Subscription {
  if (!CHANNEL.test(channel)) throw new Error(`invalid channel name: ${channel}`);
  let set = state.subs.get(channel);
  const isNew = !set;
  if (!set) {
    set = new Set();
    state.subs.set(channel, set);
  }
  set.add(subscriber);
  let ready: Promise<void>;
  if (state.client && isNew) {
    ready = state.client.query(`LISTEN ${channel}`).then(
      () => undefined,
      (err) => logError("realtime: LISTEN failed", { channel, err }),
    );
  } else if (state.client) {
    ready = Promise.resolve();
  } else {
    ensureConnection();
    ready = state.connecting ?? Promise.resolve();
  }
  let active = true;
  return {
    ready,
    unsubscribe: () => {
      if (!active) return;
      active = false;
      const current = state.subs.get(channel);
      current?.delete(subscriber);
      if (current && current.size === 0) {
        state.subs.delete(channel);
        state.client?.query(`UNLISTEN ${channel}`).catch(() => undefined);
      }
      if (state.subs.size === 0) closeConnection();
    },
  };
}

/** How many subscribers are attached, and whether the shared connection is up (for tests and health). */
export function realtimeStats(): { subscribers: number; connected: boolean; pid?: number } {
  let subscribers = 0;
  for (const set of state.subs.values()) subscribers += set.size;
  return { subscribers, connected: Boolean(state.client), pid: state.client ? state.pid : undefined };
}

function ensureConnection(): void {
  if (state.client || state.connecting || state.retry) return;
  state.connecting = connect().finally(() => {
    state.connecting = undefined;
  });
}

async function connect(): Promise<void> {
  const connectionString = process.env.DATABASE_URL;
  const client = new pg.Client({ connectionString, application_name: REALTIME_APPLICATION_NAME });
  client.on("notification", (n) => dispatch(n.channel, n.payload ?? ""));
  // An error or an end on a live connection means it is gone: open another one.
  client.on("error", (err) => lost(client, err));
  client.on("end", () => lost(client));
  try {
    if (!connectionString) throw new Error("DATABASE_URL is not set");
    await client.connect();
    const { rows } = await client.query<{ pid: number }>("select pg_backend_pid() as pid");
    for (const channel of state.subs.keys()) await client.query(`LISTEN ${channel}`);
    // No await between the last LISTEN and this line: a subscriber arriving now sees the client.
    state.client = client;
    state.pid = rows[0]?.pid;
    state.attempt = 0;
  } catch (err) {
    logError("realtime: connecting the LISTEN connection failed", { err });
    client.removeAllListeners("end");
    client.end().catch(() => undefined);
    scheduleReconnect();
    return;
  }
  if (state.subs.size === 0) {
    closeConnection();
    return;
  }
  if (state.resync) {
    state.resync = false;
    for (const set of [...state.subs.values()]) for (const s of [...set]) safely(() => s.onResync?.());
  }
}

function lost(client: pg.Client, err?: unknown): void {
  if (state.client !== client) return;
  state.client = undefined;
  state.pid = undefined;
  if (err) logError("realtime: the LISTEN connection was lost", { err });
  client.removeAllListeners("end");
  client.end().catch(() => undefined);
  if (state.subs.size > 0) {
    state.resync = true;
    scheduleReconnect();
  }
}

function scheduleReconnect(): void {
  if (state.retry || state.subs.size === 0) return;
  const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** state.attempt);
  state.attempt += 1;
  state.retry = setTimeout(() => {
    state.retry = undefined;
    if (state.subs.size > 0) ensureConnection();
  }, delay);
  // A pending retry must not keep a worker or a test process alive.
  state.retry.unref();
}

function closeConnection(): void {
  if (state.retry) clearTimeout(state.retry);
  state.retry = undefined;
  state.attempt = 0;
  state.resync = false;
  const client = state.client;
  state.client = undefined;
  state.pid = undefined;
  if (client) {
    client.removeAllListeners("end");
    client.end().catch(() => undefined);
  }
}

function dispatch(channel: string, payload: string): void {
  const set = state.subs.get(channel);
  if (!set) return;
  for (const s of [...set]) safely(() => s.onMessage(payload));
}

// One subscriber's failure must not keep the others from their notifications.
function safely(fn: () => void): void {
  try {
    fn();
  } catch (err) {
    logError("realtime: a subscriber failed", { err });
  }
}
