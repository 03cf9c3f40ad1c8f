import { eq, sql } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import * as memoriesRoute from "@/app/api/live_api/user/memories/current/route";
import { db } from "@/db/client";
import { insertTool } from "@/db/queries/apps";
import { findRun } from "@/db/queries/runs";
import { toolRuns, tools } from "@/db/schema";
import type { CustomField } from "@/lib/apps/schemas";
import { pruneExpired } from "@/lib/jobs/prune";
import { messages } from "@/lib/messages";
import { resetsAtText } from "@/lib/runs/limits";
import { RUN_ID_HEADER } from "@/lib/runs/schemas";
import { fillTemplate } from "@/lib/text";
import { syncedRowsItem, syncedTextItem } from "../support/context";
import { createBuilder, createEndUser, randomIp } from "../support/factories";
import { call } from "../support/http";
import { openAiServerEnv, startOpenAiServer } from "../support/openai-server";
import { eventually, newApp, parseStream, run, startRun } from "../support/runs";

// Tool runs end to end: the real route, the real AI SDK client over HTTP to a local server
// speaking the OpenAI-compatible API (streaming SSE, usage chunks, scripted failures, slow and
// dropped connections), the real database. lib/env reads the environment once: set it first.
const server = await startOpenAiServer();
for (const name of ["OPENAI_API_KEY", "AI_DEFAULT_MODEL"]) delete process.env[name];
Object.assign(process.env, openAiServerEnv(server));

afterAll(() => server.close());
beforeEach(() => server.reset());

/** A field as the editor saves it; options are given by their labels. */
const field = (
  f: Partial<Omit<CustomField, "options">> & Pick<CustomField, "name"> & { options?: { label: string }[] },
) => ({
  label: "",
  type: "text",
  ...f,
  options: (f.options ?? []).map((o) => ({ iconUrl: null, ...o })),
});

const runOf = async (res: { headers: Headers }) => (await findRun(res.headers.get(RUN_ID_HEADER)!))!;
const runsOf = (appId: string) =>
  db().select().from(toolRuns).where(eq(toolRuns.appId, appId)).orderBy(toolRuns.createdAt);
const systemOf = (i = 0) =>
  server.chats[i]!.messages.filter((m) => m.role === "system")
    .map((m) => m.content)
    .join("\n");
const userOf = (i = 0) => server.chats[i]!.messages.find((m) => m.role === "user")!.content;

const nextUtcMidnight = () => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1));
};

describe("POST /api/apps/{appId}/run: the answer", () => {
  it("streams the model's answer as a UI message stream and records the run with its tokens and cost", async () => {
    const owner = await createBuilder();
    const app = await newApp(owner, {
      content: {
        gptPrompt: "Suggest a meal for a [diet] eater. Answer in [language].",
        fields: [
          field({
            name: "diet",
            label: "Diet",
            type: "select",
            options: [{ label: "Vegan" }, { label: "Omnivore" }],
          }),
          field({ name: "language", label: "Language", required: true }),
          field({ name: "email", label: "Email", type: "email", personal: true }),
          // No tag in the instructions and not personal: it needs activation, so it is not sent.
          field({ name: "unused", label: "Unused" }),
        ],
      },
      settings: { modelTemperature: 0.3 },
    });
    server.script("A lentil curry with rice.");

    const res = await run(app.id, {
      inputs: {
        input: "Something warm please",
        diet: "vegan",
        language: "French",
        email: "a@b.co",
        unused: "zzz",
      },
    });

    expect(res.status).toBe(200);
    expect(res.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    const runId = res.headers.get(RUN_ID_HEADER)!;
    const { parts, done, answer } = res.stream!;
    expect(done).toBe(true);
    expect(answer).toBe("A lentil curry with rice.");
    expect(parts[0]).toEqual({ type: "start", messageId: runId, messageMetadata: { runId } });
    expect(parts[1]).toEqual({ type: "text-start", id: "text-1" });
    expect(parts.filter((p) => p.type === "text-delta").length).toBeGreaterThan(1);
    expect(parts.at(-2)).toEqual({ type: "text-end", id: "text-1" });
    const finish = parts.at(-1)!;
    expect(finish.type).toBe("finish");

    // What the model was asked: the default model, the app's temperature, tags replaced.
    const chat = server.chats[0]!;
    expect(chat.model).toBe("gpt-4o-mini");
    expect(chat.stream).toBe(true);
    expect(chat.body.temperature).toBe(0.3);
    expect(systemOf()).toContain("Suggest a meal for a Vegan eater. Answer in French.");
    expect(systemOf()).toContain("About the user:\n- Email: a@b.co");
    expect(systemOf()).not.toContain("zzz");
    expect(userOf()).toBe("Something warm please");

    const recorded = await eventually(
      () => findRun(runId),
      (r) => r?.status === "success",
    );
    expect(recorded).toMatchObject({
      appId: app.id,
      toolId: null,
      kind: "visitor",
      userId: null,
      status: "success",
      output: "A lentil curry with rice.",
      model: "gpt-4o-mini",
      credits: 1,
      costKnown: true,
      error: null,
      inputs: {
        input: "Something warm please",
        diet: "Vegan",
        language: "French",
        email: "a@b.co",
        unused: "zzz",
      },
    });
    // The local server counts about four characters a token; its usage chunk is what is recorded.
    expect(recorded!.promptTokens).toBeGreaterThan(10);
    expect(recorded!.completionTokens).toBe(Math.ceil("A lentil curry with rice.".length / 4));
    expect(finish).toMatchObject({
      messageMetadata: {
        runId,
        status: "success",
        usage: { promptTokens: recorded!.promptTokens, completionTokens: recorded!.completionTokens },
      },
    });
    const expectedCost = (recorded!.promptTokens! * 0.15 + recorded!.completionTokens! * 0.6) / 1_000_000;
    expect(recorded!.costUsd).toBeCloseTo(expectedCost, 6);
    expect(recorded!.durationMs).toBeGreaterThanOrEqual(0);
    expect(recorded!.finishedAt).not.toBeNull();
  });

  it("uses the app's model; a model without a known price costs 0 and says so", async () => {
    const owner = await createBuilder();
    const app = await newApp(owner, { settings: { aiModel: "local-echo" } });
    const res = await run(app.id, { inputs: { input: "ping" } });
    expect(res.status).toBe(200);
    expect(server.chats[0]!.model).toBe("local-echo");
    const recorded = await eventually(
      () => runOf(res),
      (r) => r.status === "success",
    );
    expect(recorded).toMatchObject({ model: "local-echo", costUsd: 0, costKnown: false });
    expect(recorded.promptTokens).toBeGreaterThan(0);
  });

  it("runs the tool of a generated app; its draft tools and other apps' tools are not found", async () => {
    const owner = await createBuilder();
    const app = await newApp(owner, { type: "generated" });
    const tool = await insertTool({
      appId: app.id,
      title: "Haiku",
      path: "haiku",
      position: 0,
      content: {
        gptPrompt: "Write a haiku about [topic].",
        fields: [field({ name: "topic", required: true })],
      },
    });
    const other = await newApp(owner, { type: "generated" });
    const otherTool = await insertTool({ appId: other.id, title: "X", path: "x", position: 0, content: {} });
    await db().update(tools).set({ status: "active" }).where(eq(tools.id, otherTool.id));

    // A draft tool: only its builder previews it.
    let res = await run(app.id, { toolId: tool.id, inputs: { topic: "rain" } });
    expect(res.status).toBe(404);
    expect(res.json!.error).toEqual({ code: "NOT_FOUND", message: messages.toolNotFound });
    await db().update(tools).set({ status: "active" }).where(eq(tools.id, tool.id));

    res = await run(app.id, { toolId: tool.id, inputs: { topic: "rain" } });
    expect(res.status).toBe(200);
    expect(systemOf()).toContain("Write a haiku about rain.");
    // The main input is shown, left empty: the user turn asks to follow the instructions.
    expect(userOf()).toBe("Answer now, following the instructions.");
    expect(await runOf(res)).toMatchObject({ toolId: tool.id });

    for (const body of [{ toolId: otherTool.id }, {}]) {
      res = await run(app.id, { ...body, inputs: { topic: "rain" } });
      expect(res.status).toBe(404);
      expect(res.json!.error.message).toBe(messages.toolNotFound);
    }
  });

  it("checks the inputs against the form before anything is asked or counted", async () => {
    const owner = await createBuilder();
    const app = await newApp(owner, {
      content: {
        gptPrompt: "[size] [height]",
        fields: [
          field({
            name: "size",
            label: "Size",
            type: "select",
            required: true,
            options: [{ label: "S" }, { label: "M" }],
          }),
          field({ name: "height", label: "Height", type: "height" }),
        ],
      },
      settings: { dailyUserLimit: 1 },
    });
    let res = await run(app.id, { inputs: { input: "hi" } });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      field: "size",
      error: { code: "FIELD_REQUIRED", message: fillTemplate(messages.runFieldRequired, { label: "Size" }) },
    });
    res = await run(app.id, { inputs: { size: "XL" } });
    expect(res.json!.error).toEqual({
      code: "OPTION_INVALID",
      message: fillTemplate(messages.runOptionInvalid, { label: "Size" }),
    });
    res = await run(app.id, { inputs: { size: "m", height: "tall" } });
    expect(res.json!.error.message).toBe(fillTemplate(messages.runNumberInvalid, { label: "Height" }));
    res = await run(app.id, { inputs: { input: "x".repeat(10_001), size: "S" } });
    expect(res.status).toBe(400);
    expect(res.json!.error.code).toBe("INVALID_INPUT");

    const empty = await newApp(owner);
    res = await run(empty.id, { inputs: { input: "   " } });
    expect(res.json!.error).toEqual({ code: "INPUT_EMPTY", message: messages.runInputEmpty });

    expect(server.chats).toHaveLength(0);
    expect(await runsOf(app.id)).toEqual([]);
    // The limit of 1 is untouched: a good run still goes through, with the value as the option reads.
    res = await run(app.id, { inputs: { size: "m", height: "180" } });
    expect(res.status).toBe(200);
    expect(systemOf()).toBe("M 180 cm");
  });

  it("waits out a slow first byte: the headers come with the first word", async () => {
    const owner = await createBuilder();
    const app = await newApp(owner);
    server.script({ text: "Late but here.", delayMs: 400 });
    const started = Date.now();
    const res = await startRun(app.id);
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    expect(res.status).toBe(200);
    expect(parseStream(await res.text()).answer).toBe("Late but here.");
  });
});

describe("grounding in the app's data", () => {
  const textItem = syncedTextItem;

  it("default query method: the app's chunks that match the inputs are in the prompt, nobody else's", async () => {
    const owner = await createBuilder();
    const app = await newApp(owner);
    const other = await newApp(owner);
    await textItem(app.id, "policies.txt", [
      "Refund policy: customers may return any purchase within 30 days for a full refund.",
      "Shipping takes five business days to Europe.",
    ]);
    await textItem(other.id, "other.txt", ["Refund policy of another shop: no refunds ever."]);

    const res = await run(app.id, { inputs: { input: "What is your refund policy?" } });
    expect(res.status).toBe(200);
    const system = systemOf();
    expect(system).toContain("within 30 days for a full refund");
    expect(system).toContain('source="policies.txt"');
    expect(system).not.toContain("five business days");
    expect(system).not.toContain("no refunds ever");
  });

  it("smart items filtering: the CSV rows that the fields' include and exclude conditions select", async () => {
    const owner = await createBuilder();
    const app = await newApp(owner, {
      content: {
        gptPrompt: "Recommend a drink.",
        fields: [
          field({
            name: "colour",
            label: "Colour",
            type: "multiselect",
            filterCondition: "include",
            options: [{ label: "Green" }, { label: "Brown" }, { label: "Black" }],
          }),
          field({ name: "size", label: "", filterCondition: "exclude" }),
        ],
      },
      settings: { aiQueryMethod: "smart_items_filtering" },
    });
    const menu = [
      { name: "Green tea", colour: "Green", size: "Small" },
      { name: "Matcha latte", colour: "green", size: "Large" },
      { name: "Black tea", colour: "Black", size: "Small" },
      { name: "Espresso", colour: "BROWN", size: "Small" },
    ];
    await syncedRowsItem(app.id, "menu.csv", menu);

    const res = await run(app.id, { inputs: { colour: ["Green", "Brown"], size: "large" } });
    expect(res.status).toBe(200);
    const system = systemOf();
    // One line per row, every column of it (in the stored row's key order).
    expect(system).toMatch(/^1\. (?=.*name: Green tea)(?=.*colour: Green)(?=.*size: Small).*$/m);
    expect(system).toContain("name: Espresso");
    expect(system).not.toContain("Matcha latte");
    expect(system).not.toContain("Black tea");
  });
});

describe("limits and credits", () => {
  it("20 parallel runs of one user at a daily limit of 3: exactly 3 go through", async () => {
    const owner = await createBuilder();
    const app = await newApp(owner, { settings: { dailyUserLimit: 3 } });
    const user = await createEndUser(app.id);
    const results = await Promise.all(Array.from({ length: 20 }, () => run(app.id, { token: user.token })));

    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect(ok).toHaveLength(3);
    expect(refused).toHaveLength(17);
    for (const r of ok) expect(r.stream!.done).toBe(true);
    const resetsAt = nextUtcMidnight();
    for (const r of refused) {
      expect(r.json).toEqual({
        error: {
          code: "DAILY_LIMIT_REACHED",
          message: fillTemplate(messages.runDailyLimit, { resetsAt: resetsAtText(resetsAt) }),
        },
        limit: { period: "day", limit: 3, used: 3, creditsPerRun: 1, resetsAt: resetsAt.toISOString() },
      });
    }
    expect(messages.runDailyLimit).toContain("resets {resetsAt}");
    const rows = await runsOf(app.id);
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.kind === "end_user" && r.userId === user.user.id && r.credits === 1)).toBe(
      true,
    );
    expect(server.chats).toHaveLength(3);

    // Another user of the same app, and a visitor, have limits of their own.
    const second = await createEndUser(app.id);
    expect((await run(app.id, { token: second.token })).status).toBe(200);
    expect((await run(app.id)).status).toBe(200);
  });

  it("a weekly limit counts the whole UTC week, and nothing before it", async () => {
    const owner = await createBuilder();
    const app = await newApp(owner, { settings: { weeklyUserLimit: 2, dailyUserLimit: 5 } });
    const user = await createEndUser(app.id);
    const subject = `user:${user.user.id}`;
    // One run at the very start of this week, one eight days ago (last week: it does not count).
    await db().execute(sql`
      insert into tool_runs (app_id, kind, user_id, subject, inputs, model, credits, status, created_at)
      values (${app.id}, 'end_user', ${user.user.id}, ${subject}, '{}', 'gpt-4o-mini', 1, 'success',
              date_trunc('week', now() at time zone 'UTC') at time zone 'UTC'),
             (${app.id}, 'end_user', ${user.user.id}, ${subject}, '{}', 'gpt-4o-mini', 1, 'success',
              now() - interval '8 days')`);

    expect((await run(app.id, { token: user.token })).status).toBe(200);
    const res = await run(app.id, { token: user.token });
    expect(res.status).toBe(429);
    expect(res.json!.error.code).toBe("WEEKLY_LIMIT_REACHED");
    const limit = res.json!.limit as { period: string; used: number; resetsAt: string };
    expect(limit).toMatchObject({ period: "week", used: 2 });
    const resetsAt = new Date(limit.resetsAt);
    expect(resetsAt.getUTCDay()).toBe(1); // a Monday
    expect(resetsAt.getUTCHours()).toBe(0);
    expect(resetsAt.getTime() - Date.now()).toBeGreaterThan(0);
    expect(resetsAt.getTime() - Date.now()).toBeLessThanOrEqual(7 * 86_400_000);
    expect(res.json!.error.message).toBe(
      fillTemplate(messages.runWeeklyLimit, { resetsAt: resetsAtText(resetsAt) }),
    );
  });

  it("credits per run are what the limits count; a tool of 0 credits is never limited", async () => {
    const owner = await createBuilder();
    const app = await newApp(owner, { settings: { dailyUserLimit: 10, creditsPerRun: 3 } });
    const user = await createEndUser(app.id);
    for (let i = 0; i < 3; i++) expect((await run(app.id, { token: user.token })).status).toBe(200);
    const res = await run(app.id, { token: user.token });
    expect(res.status).toBe(429);
    expect(res.json!.limit).toMatchObject({ used: 9, limit: 10, creditsPerRun: 3 });
    expect((await runsOf(app.id)).map((r) => r.credits)).toEqual([3, 3, 3]);

    const free = await newApp(owner, { settings: { dailyUserLimit: 1, creditsPerRun: 0 } });
    const visitorIp = randomIp();
    for (let i = 0; i < 3; i++) expect((await run(free.id, { ip: visitorIp })).status).toBe(200);
  });

  it("visitors are counted by their address; the builder's previews are free of the app's limits (tests/integration/model-budget.test.ts holds them to the builder's own)", async () => {
    const owner = await createBuilder();
    const app = await newApp(owner, { settings: { dailyUserLimit: 1 } });
    const ip = randomIp();
    expect((await run(app.id, { ip })).status).toBe(200);
    expect((await run(app.id, { ip })).status).toBe(429);
    expect((await run(app.id, { ip: randomIp() })).status).toBe(200);
    // No address is stored, only a keyed hash of it.
    const rows = await runsOf(app.id);
    expect(
      rows.every((r) => r.kind === "visitor" && r.subject.startsWith("visitor:") && !r.subject.includes(ip)),
    ).toBe(true);

    for (let i = 0; i < 2; i++) {
      const res = await run(app.id, { token: owner.token, ip });
      expect(res.status).toBe(200);
      expect(await runOf(res)).toMatchObject({ kind: "preview", userId: owner.user.id, credits: 0 });
    }
  });

  it("a run the model fails before its first word is a 502, recorded as an error, and costs nothing", async () => {
    const owner = await createBuilder();
    const app = await newApp(owner, { settings: { dailyUserLimit: 1 } });
    const user = await createEndUser(app.id);
    // One retry: both attempts fail.
    server.script(
      { status: 500, message: "The engine is overloaded", retryAfterMs: 0 },
      { status: 500, message: "The engine is overloaded", retryAfterMs: 0 },
    );
    const res = await run(app.id, { token: user.token });
    expect(res.status).toBe(502);
    expect(res.json!.error).toEqual({ code: "MODEL_FAILED", message: messages.runFailed });
    const [failed] = await runsOf(app.id);
    expect(failed).toMatchObject({ status: "error", credits: 0, output: "" });
    expect(failed!.error).toContain("500");
    expect(failed!.error).toContain("The engine is overloaded");

    // The limit of 1 is still there to use.
    expect((await run(app.id, { token: user.token })).status).toBe(200);
  });
});

describe("cancellation and broken connections", () => {
  it("a client that goes away mid-answer: the model request is aborted and the run recorded as cancelled", async () => {
    const owner = await createBuilder();
    const app = await newApp(owner, { settings: { dailyUserLimit: 5 } });
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
    server.script({ text: words, chunkDelayMs: 100 });
    const client = new AbortController();
    const res = await startRun(app.id, { signal: client.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('"type":"start"');
    // The user presses cancel: the fetch is aborted, its body cancelled.
    client.abort();
    await reader.cancel();

    const recorded = await eventually(
      () => runOf(res),
      (r) => r.status !== "running",
    );
    expect(recorded.status).toBe("cancelled");
    expect(recorded.output.startsWith("word0")).toBe(true);
    expect(recorded.output.length).toBeLessThan(words.length);
    expect(recorded.credits).toBe(1); // some words were produced: the run counts
    expect(recorded.error).toBe(messages.runCancelled);
    // The model server saw its connection closed before the answer was complete.
    await eventually(
      async () => server.clientClosed.length,
      (n) => n === 1,
    );
    expect(server.clientClosed).toHaveLength(1);
  });

  it("a client that goes away before the first word: cancelled, nothing charged", async () => {
    const owner = await createBuilder();
    const app = await newApp(owner, { settings: { dailyUserLimit: 1 } });
    const ip = randomIp();
    server.script({ text: "Too late", delayMs: 3000 });
    const client = new AbortController();
    const pending = startRun(app.id, { signal: client.signal, ip });
    await eventually(
      async () => server.chats.length,
      (n) => n === 1,
    );
    client.abort();
    const res = await pending;
    expect(res.status).toBe(499);
    const [recorded] = await runsOf(app.id);
    expect(recorded).toMatchObject({ status: "cancelled", credits: 0, output: "" });
    await eventually(
      async () => server.clientClosed.length,
      (n) => n === 1,
    );
    expect(server.clientClosed).toHaveLength(1);
    // Nothing was charged: the daily run is still there.
    expect((await run(app.id, { ip })).status).toBe(200);
  });

  it("a model connection dropped mid-answer: the words so far, an error part, the run recorded as an error", async () => {
    const owner = await createBuilder();
    const app = await newApp(owner);
    server.script({ text: "One two three four five six", dropAfterChunks: 2 });
    const res = await run(app.id);
    expect(res.status).toBe(200);
    const { parts, answer, done } = res.stream!;
    expect(answer).toBe("One two ");
    expect(parts.at(-1)).toEqual({ type: "error", errorText: messages.runInterrupted });
    expect(parts.some((p) => p.type === "finish")).toBe(false);
    expect(done).toBe(true);
    const recorded = await eventually(
      () => runOf(res),
      (r) => r.status !== "running",
    );
    expect(recorded).toMatchObject({ status: "error", output: "One two ", credits: 1 });
    expect(recorded.error).toMatch(/^The connection to the model was lost: /);
  });

  it("runs left 'running' by a server that stopped are ended as aborted by the prune job", async () => {
    const owner = await createBuilder();
    const app = await newApp(owner);
    const [stale] = await db()
      .insert(toolRuns)
      .values({
        appId: app.id,
        kind: "visitor",
        subject: "visitor:x",
        inputs: {},
        model: "gpt-4o-mini",
        credits: 1,
        createdAt: new Date(Date.now() - 60 * 60 * 1000),
      })
      .returning();
    await pruneExpired();
    expect(await findRun(stale!.id)).toMatchObject({ status: "aborted", error: messages.runServerStopped });
  });
});

describe("who may run what", () => {
  it("a draft app: its builder previews it, anybody else gets the 404 of an app that does not exist", async () => {
    const owner = await createBuilder();
    const stranger = await createBuilder();
    const admin = await createBuilder({ isAdmin: true });
    const app = await newApp(owner, { status: "draft" });
    const endUser = await createEndUser(app.id);
    for (const token of [undefined, stranger.token, endUser.token]) {
      const res = await run(app.id, { token });
      expect(res.status).toBe(404);
      expect(res.json!.error).toEqual({ code: "NOT_FOUND", message: messages.appNotFound });
    }
    for (const token of [owner.token, admin.token]) {
      const res = await run(app.id, { token });
      expect(res.status).toBe(200);
      expect(await runOf(res)).toMatchObject({ kind: "preview" });
    }
    expect(server.chats).toHaveLength(2);
  });

  it("an app that asks for sign-in runs only for its own end users: another app's user is nobody there", async () => {
    const ownerA = await createBuilder();
    const ownerB = await createBuilder();
    const appA = await newApp(ownerA, { settings: { isSignupEnabled: true } });
    const appB = await newApp(ownerB);
    const userA = await createEndUser(appA.id);
    const userB = await createEndUser(appB.id);

    for (const token of [undefined, userB.token]) {
      const res = await run(appA.id, { token });
      expect(res.status).toBe(401);
      expect(res.json!.error).toEqual({ code: "SIGN_IN_REQUIRED", message: messages.runSignInRequired });
    }
    expect((await run(appA.id, { token: userA.token })).status).toBe(200);

    // App B asks for no sign-in: user A may use it, but only as an anonymous visitor.
    const res = await run(appB.id, { token: userA.token });
    expect(res.status).toBe(200);
    expect(await runOf(res)).toMatchObject({ kind: "visitor", userId: null });
  });
});

describe("memories", () => {
  async function memoryApp() {
    const owner = await createBuilder();
    const app = await newApp(owner, {
      content: {
        gptPrompt: "Plan a week of meals for a [diet] diet, allergic to [allergies].",
        fields: [
          field({ name: "diet", label: "Diet", memorize: true }),
          field({
            name: "allergies",
            label: "Allergies",
            type: "multiselect",
            memorize: true,
            options: [{ label: "Nuts" }, { label: "Milk" }],
          }),
          field({ name: "mood", label: "Mood" }),
        ],
      },
      settings: { isSignupEnabled: true },
    });
    return { owner, app };
  }
  const memories = (appId: string, token: string, method: "GET" | "DELETE" = "GET") =>
    call<{ memories: Record<string, unknown> }>(method === "GET" ? memoriesRoute.GET : memoriesRoute.DELETE, {
      method,
      path: `/api/live_api/user/memories/current?appId=${appId}`,
      token,
    });

  it("keeps the memorize fields' answers per user per app after a successful run, and forgets them on request", async () => {
    const { app } = await memoryApp();
    const user = await createEndUser(app.id);
    const other = await createEndUser(app.id);
    expect((await memories(app.id, user.token)).json).toEqual({ memories: {} });

    const res = await run(app.id, {
      token: user.token,
      inputs: { input: "go", diet: "vegan", allergies: ["nuts"], mood: "happy" },
    });
    expect(res.status).toBe(200);
    await eventually(
      () => runOf(res),
      (r) => r.status === "success",
    );
    const got = await eventually(
      () => memories(app.id, user.token),
      (r) => Object.keys(r.json.memories).length > 0,
    );
    expect(got.status).toBe(200);
    expect(got.json).toEqual({ memories: { diet: "vegan", allergies: ["Nuts"] } });
    expect((await memories(app.id, other.token)).json).toEqual({ memories: {} });

    // The next answer replaces the last one.
    await run(app.id, { token: user.token, inputs: { diet: "keto" } }).then(async (r) => {
      await eventually(
        () => runOf(r),
        (x) => x.status === "success",
      );
    });
    expect((await memories(app.id, user.token)).json.memories).toEqual({ diet: "keto", allergies: ["Nuts"] });

    const cleared = await memories(app.id, user.token, "DELETE");
    expect(cleared.status).toBe(200);
    expect((await memories(app.id, user.token)).json).toEqual({ memories: {} });
  });

  it("a failed run remembers nothing; builders and other apps' users cannot read an app's memories", async () => {
    const { owner, app } = await memoryApp();
    const user = await createEndUser(app.id);
    server.script({ status: 400, message: "bad request" });
    expect((await run(app.id, { token: user.token, inputs: { diet: "vegan" } })).status).toBe(502);
    expect((await memories(app.id, user.token)).json).toEqual({ memories: {} });

    const ownerB = await createBuilder();
    const appB = await newApp(ownerB);
    const userB = await createEndUser(appB.id);
    for (const token of [owner.token, userB.token]) {
      const res = await memories(app.id, token);
      expect(res.status).toBe(403);
      expect(res.json).toMatchObject({ error: { code: "FORBIDDEN", message: messages.forbidden } });
    }
    // The builder's previews remember nothing either.
    await run(app.id, { token: owner.token, inputs: { diet: "paleo" } });
    const rows = await db().execute(
      sql`select count(*)::int as n from user_memories where app_id = ${app.id}`,
    );
    expect(rows.rows[0]).toEqual({ n: 0 });
  });
});
