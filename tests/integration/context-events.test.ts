import { NextRequest } from "next/server";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import * as eventsRoute from "@/app/api/context/events/route";
import { insertApp } from "@/db/queries/apps";
import { insertContextItem, setContextItemStatus } from "@/db/queries/context";
import type { ContextItemStatus } from "@/db/schema";
import { REALTIME_APPLICATION_NAME, realtimeStats } from "@/lib/realtime/listener";
import { createBuilder, fromIp } from "../support/factories";
import { call } from "../support/http";

type Builder = Awaited<ReturnType<typeof createBuilder>>;
type Status = { id: string; status: string; error: string | null; lastSyncedAt: string | null };
type Event = { event: string; data: string };

const newApp = (b: Builder, header = "Live app") =>
  insertApp({ ownerAccountId: b.account.accountId, header });
const newItem = (appId: string, status: ContextItemStatus, name = "Note") =>
  insertContextItem({ appId, name, type: "txt", source: "local files", status, size: 4, content: "text" });

/** Opens the event stream and reads it as it comes (tests/support/http.ts `call` waits for the end). */
async function openStream(b: Builder, appId: string) {
  const abort = new AbortController();
  const req = new NextRequest(new URL(`/api/context/events?appId=${appId}`, "http://localhost:3000"), {
    method: "GET",
    headers: { authorization: `Bearer ${b.token}`, accept: "text/event-stream", ...fromIp() },
    signal: abort.signal,
  });
  const res = await eventsRoute.GET(req, { params: Promise.resolve({}) });
  const events: Event[] = [];
  const comments: string[] = [];
  let ended = false;
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const pump = (async () => {
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const fields = new Map<string, string>();
        for (const line of block.split("\n")) {
          if (line.startsWith(":")) comments.push(line);
          const at = line.indexOf(": ");
          if (at > 0) fields.set(line.slice(0, at), line.slice(at + 2));
        }
        if (fields.has("event")) events.push({ event: fields.get("event")!, data: fields.get("data") ?? "" });
        end = buffer.indexOf("\n\n");
      }
    }
    ended = true;
  })();
  const statuses = () => events.filter((e) => e.event === "status").map((e) => JSON.parse(e.data) as Status);
  return { res, abort, statuses, comments, pump, isEnded: () => ended };
}

// Another connection than the server's own, as a worker in another process would use.
async function changeFromElsewhere(id: string, status: ContextItemStatus) {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query("begin");
    await client.query(
      `update context_items set status = $2, last_synced_at = case when $2 = 'synced' then now() else last_synced_at end
       where id = $1`,
      [id, status],
    );
    await client.query(
      `select pg_notify('context_items', json_build_object('id', id, 'appId', app_id, 'status', status,
         'error', error, 'lastSyncedAt', last_synced_at)::text) from context_items where id = $1`,
      [id],
    );
    await client.query("commit");
  } finally {
    await client.end();
  }
}

const opened: { abort: AbortController; pump: Promise<void> }[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) {
    s.abort.abort();
    await s.pump;
  }
});

describe("GET /api/context/events (live status)", () => {
  it("sends the live items first, then each status change made on another connection; never another app's", async () => {
    const before = realtimeStats().subscribers;
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const other = await newApp(b, "Other app");
    const pending = await newItem(app.id, "pending");
    const synced = await newItem(app.id, "synced", "Done");
    const foreign = await newItem(other.id, "pending", "Elsewhere");

    const s = await openStream(b, app.id);
    opened.push(s);
    expect(s.res.status).toBe(200);
    expect(s.res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(s.res.headers.get("cache-control")).toMatch(/no-store/);
    await expect.poll(() => s.statuses().map((e) => [e.id, e.status])).toEqual([[pending.id, "pending"]]);
    expect(realtimeStats()).toMatchObject({ subscribers: before + 1, connected: true });

    await changeFromElsewhere(pending.id, "running");
    await changeFromElsewhere(foreign.id, "running");
    await setContextItemStatus(pending.id, "error", { error: "The file could not be read" });
    await setContextItemStatus(foreign.id, "synced", { lastSyncedAt: new Date() });
    await changeFromElsewhere(synced.id, "synced");
    await expect
      .poll(() => s.statuses().map((e) => [e.id, e.status]))
      .toEqual([
        [pending.id, "pending"],
        [pending.id, "running"],
        [pending.id, "error"],
        [synced.id, "synced"],
      ]);
    expect(s.statuses()[2]).toEqual({
      id: pending.id,
      status: "error",
      error: "The file could not be read",
      lastSyncedAt: null,
    });
    expect(s.statuses()[3]!.lastSyncedAt).toEqual(expect.any(String));
    expect(s.statuses().some((e) => e.id === foreign.id)).toBe(false);

    // The client goes away: the stream ends and its subscriber is gone.
    s.abort.abort();
    await s.pump;
    expect(s.isEnded()).toBe(true);
    expect(realtimeStats().subscribers).toBe(before);
  });

  it("many streams share one LISTEN connection, which closes with the last of them", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const item = await newItem(app.id, "pending");
    const streams = await Promise.all([1, 2, 3].map(() => openStream(b, app.id)));
    opened.push(...streams);
    for (const s of streams) await expect.poll(() => s.statuses().length).toBe(1);
    const pid = realtimeStats().pid;
    const backends = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await backends.connect();
    try {
      const listening = await backends.query(
        "select pid from pg_stat_activity where datname = current_database() and application_name = $1",
        [REALTIME_APPLICATION_NAME],
      );
      expect(listening.rows.map((r) => r.pid)).toEqual([pid]);
    } finally {
      await backends.end();
    }
    await setContextItemStatus(item.id, "running");
    for (const s of streams)
      await expect.poll(() => s.statuses().map((e) => e.status)).toEqual(["pending", "running"]);
    for (const s of streams.splice(0)) s.abort.abort();
    await Promise.all(opened.splice(0).map((s) => s.pump));
    expect(realtimeStats()).toMatchObject({ subscribers: 0, connected: false });
  });

  it("after the LISTEN connection drops it reconnects, sends the current state again and goes on", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const item = await newItem(app.id, "pending");
    const s = await openStream(b, app.id);
    opened.push(s);
    await expect.poll(() => s.statuses().length).toBe(1);
    const pid = realtimeStats().pid!;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      await admin.query("select pg_terminate_backend($1)", [pid]);
    } finally {
      await admin.end();
    }
    // Changed while nobody listened: the resync after the reconnect carries it.
    await changeFromElsewhere(item.id, "running");
    await expect
      .poll(() => realtimeStats().connected && realtimeStats().pid !== pid, { timeout: 5000 })
      .toBe(true);
    await expect.poll(() => s.statuses().at(-1)?.status).toBe("running");
    await changeFromElsewhere(item.id, "synced");
    await expect.poll(() => s.statuses().at(-1)?.status).toBe("synced");
  });

  it("without Accept: text/event-stream it answers the live items once, as JSON; others' apps are 404", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const stranger = await createBuilder();
    const app = await newApp(b);
    const live = await newItem(app.id, "running");
    await newItem(app.id, "synced", "Done");
    const res = await call<{ contextItems: Status[] }>(eventsRoute.GET, {
      method: "GET",
      path: `/api/context/events?appId=${app.id}`,
      token: b.token,
    });
    expect(res.status).toBe(200);
    expect(res.json.contextItems).toEqual([
      { id: live.id, status: "running", error: null, lastSyncedAt: null },
    ]);
    const refused = await call(eventsRoute.GET, {
      method: "GET",
      path: `/api/context/events?appId=${app.id}`,
      token: stranger.token,
      headers: { accept: "text/event-stream" },
    });
    expect(refused.status).toBe(404);
  });
});
