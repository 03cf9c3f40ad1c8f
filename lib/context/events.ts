import "server-only";
import { listContextItems } from "@/db/queries/context";
import type { App } from "@/db/schema";
import { LIVE_STATUSES } from "@/lib/context/items";
import { env } from "@/lib/env";
import { type ContextStatusChange, subscribeContextStatus } from "@/lib/realtime/context-status";
import { takeStreamSlot } from "@/lib/realtime/stream-slots";

// A comment line this often keeps proxies and load balancers from cutting an idle stream.
export const SSE_KEEP_ALIVE_MS = 15_000;
// How long a browser's EventSource waits before it connects again after a drop.
const SSE_RETRY_MS = 3_000;

const STREAM_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-store, no-transform",
  connection: "keep-alive",
  // nginx buffers answers by default; an event must reach the browser when it happens.
  "x-accel-buffering": "no",
};

async function liveItems(appId: string): Promise<ContextStatusChange[]> {
  const items = await listContextItems(appId, LIVE_STATUSES);
  return items.map((i) => ({
    id: i.id,
    status: i.status,
    error: i.error,
    lastSyncedAt: i.lastSyncedAt ? new Date(i.lastSyncedAt).toISOString() : null,
  }));
}

// The last event of a stream that reached its lifetime: EventSource connects again by itself after
// `retry`, and the page reads the list again when it does.
const RECONNECT_EVENT = `event: reconnect\ndata: {"reason":"lifetime"}\n\n`;

const statusEvent = (c: ContextStatusChange) =>
  `event: status\ndata: ${JSON.stringify({ id: c.id, status: c.status, error: c.error, lastSyncedAt: c.lastSyncedAt })}\n\n`;

/**
 * GET /api/context/events: the app's live data sources (unsynced, pending, running) as they are
 * now, then every status change of its items as `event: status`, until the client goes away.
 * A request that does not accept text/event-stream (EventSource always does) gets the current
 * state once, as JSON, and no stream.
 *
 * A stream holds one of the account's stream slots (429 over the cap) until it ends: the client
 * goes away, the client stops reading (a keep-alive still unread at the next one), an error, or
 * its lifetime (SSE_MAX_LIFETIME_MS) is over, when it ends with `event: reconnect`.
 */
export async function contextStatusEvents(app: App, accountId: string, req: Request): Promise<Response> {
  if (!(req.headers.get("accept") ?? "").includes("text/event-stream")) {
    return Response.json(
      { contextItems: await liveItems(app.id) },
      { headers: { "cache-control": "no-store" } },
    );
  }
  const slot = takeStreamSlot(accountId);
  const lifetimeMs = env().SSE_MAX_LIFETIME_MS;
  const encoder = new TextEncoder();
  let stop = () => {};
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      const send = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          stop();
        }
      };
      // Changes that arrive while the current state is read wait for it, so an older state read
      // from the table is never sent after a newer change.
      let held: ContextStatusChange[] | null = [];
      const onChange = (c: ContextStatusChange) => (held ? held.push(c) : send(statusEvent(c)));
      const snapshot = async () => {
        try {
          for (const item of await liveItems(app.id)) send(statusEvent(item));
        } catch {
          stop();
        }
      };
      const sub = subscribeContextStatus(app.id, onChange, () => void snapshot());
      const keepAlive = setInterval(() => {
        // The last keep-alive is still queued: nobody reads this stream (a dead or stalled client).
        if ((controller.desiredSize ?? 1) <= 0) return stop();
        send(": keep-alive\n\n");
      }, SSE_KEEP_ALIVE_MS);
      const lifetime = setTimeout(() => {
        send(RECONNECT_EVENT);
        stop();
      }, lifetimeMs);
      stop = () => {
        if (closed) return;
        closed = true;
        slot.release();
        clearInterval(keepAlive);
        clearTimeout(lifetime);
        sub.unsubscribe();
        req.signal.removeEventListener("abort", stop);
        try {
          controller.close();
        } catch {
          // already closed or cancelled by the reader
        }
      };
      if (req.signal.aborted) return stop();
      req.signal.addEventListener("abort", stop, { once: true });
      send(`retry: ${SSE_RETRY_MS}\n\n`);
      // Subscribed first, read second: a change in between is held, not lost.
      await sub.ready;
      await snapshot();
      const pending = held;
      held = null;
      for (const c of pending) send(statusEvent(c));
    },
    cancel() {
      stop();
    },
  });
  return new Response(stream, { headers: STREAM_HEADERS });
}
