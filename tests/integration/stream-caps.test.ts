import { NextRequest } from "next/server";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import * as chatRoute from "@/app/api/apps/[appId]/chat/route";
import * as eventsRoute from "@/app/api/context/events/route";
import { insertApp } from "@/db/queries/apps";
import { listChatPage } from "@/db/queries/space-chat";
import type { App } from "@/db/schema";
import { STREAMS_PER_ACCOUNT } from "@/lib/constants";
import { SSE_KEEP_ALIVE_MS } from "@/lib/context/events";
import { messages } from "@/lib/messages";
import { realtimeStats } from "@/lib/realtime/listener";
import { streamSlotStats } from "@/lib/realtime/stream-slots";
import { fillTemplate } from "@/lib/text";
import { createBuilder, fromIp } from "../support/factories";
import { demoResponder, openAiServerEnv, startOpenAiServer } from "../support/openai-server";
import { createSpaceApp } from "../support/space";

// Live streams (Server-Sent Events) are capped per account: over the cap a stream is refused with
// 429 and the reason; a stream that ends, however it ends, frees its slot; another account is not
// affected. A status stream ends at its lifetime with `event: reconnect`.
// lib/env reads the environment once: set it first.
const LIFETIME_MS = 20_000;
process.env.SSE_MAX_LIFETIME_MS = String(LIFETIME_MS);
const server = await startOpenAiServer({ responder: demoResponder });
for (const name of ["OPENAI_API_KEY", "AI_DEFAULT_MODEL"]) delete process.env[name];
Object.assign(process.env, openAiServerEnv(server));
afterAll(() => server.close());

type Builder = Awaited<ReturnType<typeof createBuilder>>;
type Event = { event: string; data: string };
type Stream = {
  res: Response;
  /** The JSON answer of a refusal. */
  json: { error: { code: string; message: string } } | null;
  abort: AbortController;
  events: Event[];
  pump: Promise<void>;
  isEnded: () => boolean;
};

/** Opens the status stream of an app and reads it as it comes. */
async function openStream(b: Builder, appId: string): Promise<Stream> {
  const abort = new AbortController();
  const req = new NextRequest(new URL(`/api/context/events?appId=${appId}`, "http://localhost:3000"), {
    method: "GET",
    headers: { authorization: `Bearer ${b.token}`, accept: "text/event-stream", ...fromIp() },
    signal: abort.signal,
  });
  const res = await eventsRoute.GET(req, { params: Promise.resolve({}) });
  const events: Event[] = [];
  let ended = false;
  const isStream = (res.headers.get("content-type") ?? "").startsWith("text/event-stream");
  const json = isStream ? null : ((await res.json()) as { error: { code: string; message: string } });
  const pump = (async () => {
    if (!isStream) return;
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const fields = new Map<string, string>();
        for (const line of buffer.slice(0, end).split("\n")) {
          const at = line.indexOf(": ");
          if (at > 0) fields.set(line.slice(0, at), line.slice(at + 2));
        }
        buffer = buffer.slice(end + 2);
        if (fields.has("event")) events.push({ event: fields.get("event")!, data: fields.get("data") ?? "" });
      }
    }
    ended = true;
  })();
  const stream: Stream = { res, json, abort, events, pump, isEnded: () => ended };
  opened.push(stream);
  return stream;
}

const opened: Stream[] = [];
async function close(s: Stream) {
  s.abort.abort();
  await s.pump;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map(close));
});

const newApp = (b: Builder, header = "Live app") =>
  insertApp({ ownerAccountId: b.account.accountId, header });

function postChat(app: App, b: Builder, text: string) {
  const req = new NextRequest(new URL(`/api/apps/${app.id}/chat`, "http://localhost:3000"), {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${b.token}` },
    body: JSON.stringify({ text }),
  });
  return chatRoute.POST(req, { params: Promise.resolve({ appId: app.id }) });
}

const tooMany = fillTemplate(messages.tooManyStreams, { max: STREAMS_PER_ACCOUNT });

describe("live stream caps", () => {
  it("an account gets its cap of streams, the next is 429; closing one frees a slot; another account is unaffected", async () => {
    const baseline = streamSlotStats().total;
    const a = await createBuilder({ plan: "explorer" });
    const b = await createBuilder({ plan: "explorer" });
    const apps = [await newApp(a), await newApp(a, "Second app")];
    const streams: Stream[] = [];
    for (let i = 0; i < STREAMS_PER_ACCOUNT; i++) streams.push(await openStream(a, apps[i % 2]!.id));
    expect(streams.map((s) => s.res.status)).toEqual(streams.map(() => 200));
    expect(streamSlotStats(a.account.accountId).account).toBe(STREAMS_PER_ACCOUNT);

    const refused = await openStream(a, apps[0]!.id);
    expect(refused.res.status).toBe(429);
    expect(refused.json?.error).toEqual({ code: "TOO_MANY_STREAMS", message: tooMany });
    // A refusal holds nothing.
    expect(streamSlotStats(a.account.accountId).account).toBe(STREAMS_PER_ACCOUNT);

    // Another account opens its own streams.
    const other = await openStream(b, (await newApp(b)).id);
    expect(other.res.status).toBe(200);

    // The client goes away: its slot is free again.
    await close(streams[0]!);
    expect(streamSlotStats(a.account.accountId).account).toBe(STREAMS_PER_ACCOUNT - 1);
    const again = await openStream(a, apps[0]!.id);
    expect(again.res.status).toBe(200);
    expect((await openStream(a, apps[1]!.id)).res.status).toBe(429);

    // Without Accept: text/event-stream the answer is JSON once and takes no slot.
    const plain = await eventsRoute.GET(
      new NextRequest(new URL(`/api/context/events?appId=${apps[0]!.id}`, "http://localhost:3000"), {
        headers: { authorization: `Bearer ${a.token}`, ...fromIp() },
      }),
      { params: Promise.resolve({}) },
    );
    expect(plain.status).toBe(200);

    await Promise.all(opened.splice(0).map(close));
    expect(streamSlotStats()).toMatchObject({ total: baseline });
    expect(streamSlotStats(a.account.accountId).account).toBe(0);
  });

  it("a status stream ends at its lifetime with event: reconnect, and frees its slot and subscriber", async () => {
    const before = realtimeStats().subscribers;
    const a = await createBuilder({ plan: "explorer" });
    const app = await newApp(a);
    const s = await openStream(a, app.id);
    expect(s.res.status).toBe(200);
    expect(streamSlotStats(a.account.accountId).account).toBe(1);
    await s.pump; // ends by itself
    expect(s.isEnded()).toBe(true);
    expect(s.events.at(-1)).toEqual({ event: "reconnect", data: '{"reason":"lifetime"}' });
    expect(streamSlotStats(a.account.accountId).account).toBe(0);
    expect(realtimeStats().subscribers).toBe(before);
  }, 45_000);

  it("a status stream nobody reads is ended at the next keep-alive, before its lifetime, and frees its slot", async () => {
    const a = await createBuilder({ plan: "explorer" });
    const app = await newApp(a);
    const req = new NextRequest(new URL(`/api/context/events?appId=${app.id}`, "http://localhost:3000"), {
      headers: { authorization: `Bearer ${a.token}`, accept: "text/event-stream", ...fromIp() },
    });
    const res = await eventsRoute.GET(req, { params: Promise.resolve({}) });
    expect(res.status).toBe(200);
    expect(streamSlotStats(a.account.accountId).account).toBe(1);
    // Nothing reads the body (a client that stopped reading): its first chunk is still queued.
    await expect
      .poll(() => streamSlotStats(a.account.accountId).account, {
        timeout: SSE_KEEP_ALIVE_MS + 10_000,
        interval: 250,
      })
      .toBe(0);
    const text = await res.text();
    expect(text).toContain("retry:");
    expect(text).not.toContain("event: reconnect");
  }, 45_000);

  it("a chat answer counts as one of the account's streams: refused with 429 (the chat stays free) when they are all taken", async () => {
    const a = await createBuilder({ plan: "explorer" });
    const app = await createSpaceApp(a.account.accountId);
    const statusApp = await newApp(a);
    const streams: Stream[] = [];
    for (let i = 0; i < STREAMS_PER_ACCOUNT; i++) streams.push(await openStream(a, statusApp.id));

    const refused = await postChat(app, a, "Make a landing page");
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: { code: "TOO_MANY_STREAMS", message: tooMany } });
    expect(await listChatPage(app.id, null, 10)).toEqual([]);

    await close(streams[0]!);
    const answered = await postChat(app, a, "Make a landing page");
    expect(answered.status).toBe(200);
    expect(streamSlotStats(a.account.accountId).account).toBe(STREAMS_PER_ACCOUNT);
    expect(await answered.text()).toContain("data: [DONE]");
    // The answer has ended: its slot is free.
    await expect.poll(() => streamSlotStats(a.account.accountId).account).toBe(STREAMS_PER_ACCOUNT - 1);
  });
});
