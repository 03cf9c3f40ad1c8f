import { and, count, eq } from "drizzle-orm";
import { NextRequest } from "next/server";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import * as historyRoute from "@/app/api/apps/[appId]/chat/history/route";
import * as chatRoute from "@/app/api/apps/[appId]/chat/route";
import { db } from "@/db/client";
import { findChatMessage } from "@/db/queries/space-chat";
import { type App, appFiles, apps, spaceBlobs, versions } from "@/db/schema";
import { CHAT_MAX_OUTPUT_TOKENS, CHAT_MESSAGE_MAX, SPACE_PROMPT_FILES_BUDGET } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { DISCUSS_MODE_LINE, SPACE_ASSISTANT_MARKER } from "@/lib/space/assistant-prompt";
import { CHAT_MESSAGE_ID_HEADER, type ChatAction, ChatStreamPart } from "@/lib/space/chat-schemas";
import { DEMO_TASK_APP } from "@/lib/space/demo-task-app";
import { applyFileChanges } from "@/lib/space/versions";
import type { ChatMessageView } from "@/lib/space/views";
import { fillTemplate } from "@/lib/text";
import { createBuilder, createEndUser } from "../support/factories";
import { call } from "../support/http";
import { demoResponder, openAiServerEnv, startOpenAiServer } from "../support/openai-server";
import { eventually } from "../support/runs";
import { createSpaceApp } from "../support/space";

// The chat stream of a space app (POST /api/apps/{appId}/chat) end to end: the real route, the AI SDK over HTTP to the local
// OpenAI-compatible server answering as the demo assistant (or scripted replies), the real database.
// lib/env reads the environment once: set it first.
const server = await startOpenAiServer({ responder: demoResponder });
for (const name of ["OPENAI_API_KEY", "AI_DEFAULT_MODEL"]) delete process.env[name];
Object.assign(process.env, openAiServerEnv(server));

afterAll(() => server.close());
beforeEach(() => server.reset());

type Who = { token: string };
type Part = ChatStreamPart;

function post(app: App, who: Who, body: unknown, signal?: AbortSignal) {
  const req = new NextRequest(new URL(`/api/apps/${app.id}/chat`, "http://localhost:3000"), {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${who.token}` },
    body: typeof body === "string" ? body : JSON.stringify(body),
    signal,
  });
  return chatRoute.POST(req, { params: Promise.resolve({ appId: app.id }) });
}

function parseParts(text: string) {
  const events = text.split("\n\n").filter(Boolean);
  const done = events.at(-1) === "data: [DONE]";
  const parts = events
    .filter((e) => e !== "data: [DONE]")
    .map((e) => {
      expect(e.startsWith("data: ")).toBe(true);
      return ChatStreamPart.parse(JSON.parse(e.slice(6)));
    });
  return { parts, done };
}

/** A chat request read to its end: the JSON refusal, or the stream's parts. */
async function send(app: App, who: Who, body: unknown) {
  const res = await post(app, who, body);
  const text = await res.text();
  const isStream = res.headers.get("content-type") === "text/event-stream";
  const stream = isStream ? parseParts(text) : null;
  return {
    status: res.status,
    headers: res.headers,
    json: isStream ? null : (JSON.parse(text) as { error: { code: string; message: string } }),
    parts: stream?.parts ?? [],
    done: stream?.done ?? false,
  };
}
type Sent = Awaited<ReturnType<typeof send>>;

const prose = (s: Sent) => s.parts.map((p) => (p.type === "text-delta" ? p.delta : "")).join("");
const actionUpdates = (s: Sent) => s.parts.flatMap((p) => (p.type === "data-action" ? [p.data] : []));
/** Each action's last state, in the order they started. */
function finalActions(s: Sent): ChatAction[] {
  const last = new Map<string, ChatAction>();
  for (const a of actionUpdates(s)) last.set(a.id, a);
  return [...last.values()];
}
const finishOf = (s: Sent) =>
  s.parts.find((p) => p.type === "finish") as Extract<Part, { type: "finish" }> | undefined;
const startOf = (s: Sent) => s.parts[0] as Extract<Part, { type: "start" }>;

async function currentFiles(appId: string): Promise<Record<string, string>> {
  const rows = await db()
    .select({ path: appFiles.path, content: spaceBlobs.content })
    .from(appFiles)
    .innerJoin(spaceBlobs, and(eq(spaceBlobs.appId, appFiles.appId), eq(spaceBlobs.hash, appFiles.blobHash)))
    .where(eq(appFiles.appId, appId));
  return Object.fromEntries(rows.map((r) => [r.path, r.content]));
}

async function versionCount(appId: string) {
  const [row] = await db().select({ n: count() }).from(versions).where(eq(versions.appId, appId));
  return row!.n;
}

const history = async (app: App, who: Who) =>
  (
    await call<{ messages: ChatMessageView[] }>(historyRoute.GET, {
      method: "GET",
      path: `/api/apps/${app.id}/chat/history?fromMessageId=&limit=50`,
      params: { appId: app.id },
      token: who.token,
    })
  ).json.messages;

async function spaceOf() {
  const builder = await createBuilder();
  const app = await createSpaceApp(builder.account.accountId, "Chat Space");
  return { builder, app };
}

const systemOf = (i = 0) => server.chats[i]!.messages.find((m) => m.role === "system")!.content;

describe("POST /api/apps/{appId}/chat: an answer that writes the app", () => {
  it("streams prose and actions in order, applies them as one version annotated on the answer, and stores usage", async () => {
    const { builder, app } = await spaceOf();
    const res = await send(app, builder, { text: "A page to track my tasks" });

    expect(res.status).toBe(200);
    expect(res.done).toBe(true);
    expect(res.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    const start = startOf(res);
    const answerId = start.messageId;
    expect(res.headers.get(CHAT_MESSAGE_ID_HEADER)).toBe(answerId);
    expect(start.messageMetadata).toMatchObject({
      status: "streaming",
      discussMode: false,
      removedMessageIds: [],
    });
    const userMessageId = start.messageMetadata.userMessageId!;

    // The model was asked with the assistant's prompt, the output cap, and the request.
    const chat = server.chats[0]!;
    expect(systemOf().startsWith(SPACE_ASSISTANT_MARKER)).toBe(true);
    expect(systemOf()).toContain("The app has no files yet.");
    expect(chat.body.max_tokens).toBe(CHAT_MAX_OUTPUT_TOKENS);
    expect(chat.messages.at(-1)).toEqual({ role: "user", content: "A page to track my tasks" });

    // Prose first, then the entity, then the page, then prose: in the order written, ids stable.
    const actions = finalActions(res);
    expect(actions.map((a) => [a.id, a.type, a.file, a.status, a.applied])).toEqual([
      [`${answerId}:0`, "add_entity", "entities/Task.json", "complete", true],
      [`${answerId}:1`, "add_file", "pages/Home.jsx", "complete", true],
    ]);
    expect(actionUpdates(res)[0]).toMatchObject({ status: "streaming", isComplete: false });
    const types = res.parts.map((p) => p.type);
    expect(types.indexOf("text-start")).toBeLessThan(types.indexOf("data-action"));
    expect(types.at(-2)).toBe("data-version");
    expect(types.at(-1)).toBe("finish");
    expect(prose(res)).toBe("Here is a home page for your request.\nOpen the preview to see it.");
    expect(actions[0]!.permissions).toEqual({ read: "creator", write: "creator" });

    const version = res.parts.find((p) => p.type === "data-version")!;
    const files = await currentFiles(app.id);
    expect(Object.keys(files).sort()).toEqual(["entities/Task.json", "pages/Home.jsx"]);
    expect(files["pages/Home.jsx"]).toBe(actions[1]!.content);
    expect(files["pages/Home.jsx"]).toContain(
      '<h1 className="text-3xl font-bold">{"A page to track my tasks"}</h1>',
    );
    expect(await versionCount(app.id)).toBe(1);

    const finish = finishOf(res)!;
    expect(finish.finishReason).toBe("stop");
    expect(finish.messageMetadata).toMatchObject({
      status: "complete",
      versionId: version.id,
      userMessageId,
    });

    // Stored as streamed: prose as content, the parts and actions, the usage record.
    const stored = (await findChatMessage(app.id, answerId))!;
    expect(stored).toMatchObject({
      status: "complete",
      versionId: version.id,
      content: "Here is a home page for your request.\n\nOpen the preview to see it.",
      error: null,
    });
    expect(stored.actions).toEqual(actions);
    expect(stored.usage).toMatchObject({
      completionTokens: expect.any(Number),
      promptTokens: expect.any(Number),
      modelInfo: { model: "gpt-4o-mini" },
      finishReason: "stop",
      costKnown: true,
      rates: { promptPerMillion: 0.15, completionPerMillion: 0.6 },
    });
    const usage = stored.usage as {
      promptTokens: number;
      promptCost: number;
      totalCost: number;
      completionCost: number;
    };
    expect(usage.promptTokens).toBeGreaterThan(100);
    expect(usage.promptCost).toBeCloseTo((usage.promptTokens * 0.15) / 1e6, 6);
    expect(usage.totalCost).toBeCloseTo(usage.promptCost + usage.completionCost, 6);
    expect(finish.messageMetadata.usage).toEqual(stored.usage);

    // History gives the same parts back: the chat view renders them as it rendered the stream.
    const msgs = await history(app, builder);
    expect(msgs.map((m) => [m.id, m.role, m.annotations[0].status])).toEqual([
      [userMessageId, "user", "complete"],
      [answerId, "assistant", "complete"],
    ]);
    expect(msgs[1]!.parts.filter((p) => (p as { type: string }).type === "data-action")).toHaveLength(2);
    expect(msgs[1]!.annotations[0].versionId).toBe(version.id);
    // Named as the Versions dialog names it: by its number, not its id.
    expect(msgs[1]!.annotations[0].versionNumber).toBe((version.data as { number: number }).number);
    expect(msgs[1]!.annotations[0].versionNumber).toBe(1);
    expect(msgs[0]!.annotations[0].versionNumber).toBeNull();
    const [row] = await db().select().from(versions).where(eq(versions.id, version.id));
    expect(row).toMatchObject({ kind: "chat", messageId: answerId, userRequest: "A page to track my tasks" });
    expect(row!.metadata).toMatchObject({ added: 2, modified: 0, deleted: 0 });
  });

  it("a partial edit changes only the named part, and the model sees the current files", async () => {
    const { builder, app } = await spaceOf();
    await send(app, builder, { text: "A home page" });
    const before = (await currentFiles(app.id))["pages/Home.jsx"]!;

    const res = await send(app, builder, { text: "Change the title to Welcome home" });
    expect(res.status).toBe(200);
    expect(systemOf(1)).toContain(`<file path="pages/Home.jsx">\n${before}</file>`);
    // The earlier answer is summarised, not repeated.
    expect(server.chats[1]!.messages.find((m) => m.role === "assistant")!.content).toContain(
      "[add_file pages/Home.jsx: complete]",
    );
    const [edit] = finalActions(res);
    expect(edit).toMatchObject({ type: "partial_edit", status: "complete", applied: true });
    expect(edit!.edits).toHaveLength(1);

    const after = (await currentFiles(app.id))["pages/Home.jsx"]!;
    const beforeLines = before.split("\n");
    const afterLines = after.split("\n");
    expect(afterLines).toHaveLength(beforeLines.length);
    const changed = afterLines.flatMap((l, i) => (l === beforeLines[i] ? [] : [i]));
    expect(changed).toHaveLength(1);
    expect(afterLines[changed[0]!]).toContain('{"Change the title to Welcome home"}');
    expect(await versionCount(app.id)).toBe(2);
  });

  it("asked for a task board, the demo model writes the task app: the Task entity and a page on @app/client", async () => {
    const { builder, app } = await spaceOf();
    const res = await send(app, builder, { text: "Build a task board with sample tasks" });
    expect(res.status).toBe(200);
    expect(finalActions(res).map((a) => [a.type, a.file, a.status])).toEqual([
      ["add_entity", "entities/Task.json", "complete"],
      ["insert_entity_records", null, "complete"],
      ["add_file", "pages/Home.jsx", "complete"],
    ]);
    expect(finalActions(res)[0]!.permissions).toEqual({ read: "creator", write: "creator" });
    // The files are the shared module's, byte for byte: the seed publishes the same app.
    expect(await currentFiles(app.id)).toEqual({
      [`entities/${DEMO_TASK_APP.entity.name}.json`]: DEMO_TASK_APP.entity.content,
      [DEMO_TASK_APP.page.path]: DEMO_TASK_APP.page.content,
    });
    expect(DEMO_TASK_APP.page.content).toContain('from "@app/client"');
    // A later "change ..." still edits the task app's heading.
    const renamed = await send(app, builder, { text: "Change the title to Our chores" });
    expect(finalActions(renamed)[0]).toMatchObject({ type: "partial_edit", applied: true });
    expect((await currentFiles(app.id))["pages/Home.jsx"]).toContain('{"Change the title to Our chores"}');
    // Requests that only mention tasks keep the plain page (the other tests and specs rely on it).
    const plain = await send(app, builder, { text: "Keep a list of my tasks" });
    expect((await currentFiles(app.id))["pages/Home.jsx"]).toContain('{"Keep a list of my tasks"}');
    expect(finalActions(plain).map((a) => a.type)).toEqual(["add_entity", "add_file"]);
  });

  it("records on each answer the files put in its prompt, with their token estimates (contextFiles)", async () => {
    const { builder, app } = await spaceOf();
    const first = await send(app, builder, { text: "A home page" });
    const page = (await currentFiles(app.id))["pages/Home.jsx"]!;
    // A file over the prompt's budget is only named in the prompt: it is not a context file.
    const big = `// ${"x".repeat(SPACE_PROMPT_FILES_BUDGET)}\n`;
    await applyFileChanges(app.id, [{ type: "add_file", path: "components/Big.jsx", content: big }], {
      kind: "edit",
    });
    const second = await send(app, builder, { text: "Change the title to Hello" });
    expect(systemOf(1)).toContain("- components/Big.jsx (");

    const msgs = await history(app, builder);
    const annotationOf = (s: Sent) => msgs.find((m) => m.id === startOf(s).messageId)!.annotations[0];
    // The first answer saw an app without files.
    expect(annotationOf(first)).toMatchObject({
      contextFiles: [],
      contextMetadata: { retrievedFiles: [], relevantFiles: [], belowThresholdFiles: [] },
    });
    expect(annotationOf(second).contextFiles).toEqual(["pages/Home.jsx"]);
    // Only what is computed: no score, recall or threshold is invented. Every file of the app is
    // named (relevantFiles), and the one left out of the prompt too (belowThresholdFiles): the
    // model never saw its content.
    expect(annotationOf(second).contextMetadata).toEqual({
      retrievedFiles: [
        {
          filePath: "pages/Home.jsx",
          retrievalMethods: ["current files"],
          tokenEstimation: Math.ceil(page.length / 4),
        },
      ],
      relevantFiles: ["components/Big.jsx", "pages/Home.jsx"],
      belowThresholdFiles: [{ filename: "components/Big.jsx", tokenEstimation: Math.ceil(big.length / 4) }],
    });
    expect(systemOf(1)).not.toContain(big.slice(0, 200));
    // The user's own message records none.
    expect(msgs.find((m) => m.role === "user")!.annotations[0].contextFiles).toBeNull();
  });

  it("fails the answer and applies nothing when a partial edit's part is not in the file", async () => {
    const { builder, app } = await spaceOf();
    await send(app, builder, { text: "A home page" });
    const before = await currentFiles(app.id);
    server.script(
      'Two changes.\n<action type="add_file" path="pages/About.jsx">\nexport default () => null;\n</action>\n<action type="partial_edit" path="pages/Home.jsx">\n<find>\nnot in the file\n</find>\n<replace>\nx\n</replace>\n</action>',
    );
    const res = await send(app, builder, { text: "Two changes" });
    expect(res.parts.map((p) => p.type).slice(-2)).toEqual(["message-metadata", "error"]);
    expect(res.parts.at(-1)).toEqual({ type: "error", errorText: messages.chatAssistantFailed });
    const answerId = startOf(res).messageId;
    const stored = (await findChatMessage(app.id, answerId))!;
    expect(stored.status).toBe("failed");
    expect(stored.error).toBe(fillTemplate(messages.spacePartialEditNotFound, { path: "pages/Home.jsx" }));
    expect((stored.actions as ChatAction[]).every((a) => !a.applied)).toBe(true);
    // The model was given the page: the failed answer says so.
    expect(stored.contextFiles).toEqual(["pages/Home.jsx"]);
    expect(await currentFiles(app.id)).toEqual(before);
    expect(await versionCount(app.id)).toBe(1);
  });

  it("stores import_entities, request_secrets and insert_entity_records as actions without applying them", async () => {
    const { builder, app } = await spaceOf();
    server.script(
      'I need a key.\n<action type="request_secrets">{"secrets":[{"secretName":"STRIPE_KEY","description":"Your key"}]}</action>\n<action type="insert_entity_records" name="Task">[{"title":"Milk"}]</action>\n<action type="import_entities" name="Task">{"rows":1}</action>',
    );
    const res = await send(app, builder, { text: "Take payments" });
    const actions = finalActions(res);
    expect(actions.map((a) => [a.type, a.status, a.applied])).toEqual([
      ["request_secrets", "complete", false],
      ["insert_entity_records", "complete", false],
      ["import_entities", "complete", false],
    ]);
    expect(actions[0]!.data).toEqual({ secrets: [{ secretName: "STRIPE_KEY", description: "Your key" }] });
    expect(actions[1]).toMatchObject({ name: "Task", data: [{ title: "Milk" }] });
    expect(res.parts.some((p) => p.type === "data-version")).toBe(false);
    expect(finishOf(res)!.messageMetadata).toMatchObject({ status: "complete", versionId: null });
    expect(await versionCount(app.id)).toBe(0);
    const stored = (await findChatMessage(app.id, startOf(res).messageId))!;
    expect(stored.actions).toEqual(actions);
  });
});

describe("truncation and 'Let's keep going'", () => {
  it("an answer cut at the output cap keeps the cut action unapplied; continuing finishes the file, applied once whole", async () => {
    const { builder, app } = await spaceOf();
    const first = await send(app, builder, { text: "A long page about birds" });
    expect(first.status).toBe(200);
    expect(finishOf(first)).toMatchObject({
      finishReason: "length",
      messageMetadata: { status: "truncated", versionId: null },
    });
    const [cut] = finalActions(first);
    expect(cut).toMatchObject({ type: "add_file", status: "truncated", isTruncated: true, applied: false });
    expect(cut!.content.length).toBeGreaterThan(1000);
    expect(await currentFiles(app.id)).toEqual({});
    const firstId = startOf(first).messageId;
    expect((await findChatMessage(app.id, firstId))!.status).toBe("truncated");

    const next = await send(app, builder, { continue: true });
    expect(next.status).toBe(200);
    const start = startOf(next);
    expect(start.messageMetadata.userMessageId).toBeNull();
    // The model saw its cut answer as written, then the instruction to go on.
    const asked = server.chats[1]!.messages;
    expect(asked.at(-2)!.role).toBe("assistant");
    expect(asked.at(-2)!.content.endsWith(cut!.content)).toBe(true);

    const [whole] = finalActions(next);
    expect(whole).toMatchObject({
      id: `${start.messageId}:0`,
      type: "add_file",
      file: "pages/Home.jsx",
      status: "complete",
      applied: true,
      resumedFrom: { messageId: firstId, actionId: cut!.id },
    });
    // Its first update already holds what the cut answer wrote.
    expect(actionUpdates(next)[0]!.content.startsWith(cut!.content)).toBe(true);
    expect(whole!.content.startsWith(cut!.content)).toBe(true);
    expect(whole!.content).toContain("Part 60");
    expect(whole!.content.endsWith("  );\n}\n")).toBe(true);
    const files = await currentFiles(app.id);
    expect(files["pages/Home.jsx"]).toBe(whole!.content);
    expect(finishOf(next)!.messageMetadata.status).toBe("complete");
    const [row] = await db().select().from(versions).where(eq(versions.appId, app.id));
    expect(row).toMatchObject({ messageId: start.messageId, userRequest: "A long page about birds" });
    expect(await versionCount(app.id)).toBe(1);

    // Nothing left to continue.
    const again = await send(app, builder, { continue: true });
    expect(again.status).toBe(400);
    expect(again.json!.error).toEqual({
      code: "NOTHING_TO_CONTINUE",
      message: messages.chatNothingToContinue,
    });
  });

  it("a continuation cut again is continued again; the file is the concatenation of all three", async () => {
    const { builder, app } = await spaceOf();
    server.script(
      { text: 'Start.\n<action type="add_file" path="a.txt">\none two ', finishReason: "length" },
      { text: "three four ", finishReason: "length" },
      { text: "five\n</action>\nDone." },
    );
    await send(app, builder, { text: "Write a.txt" });
    const second = await send(app, builder, { continue: true });
    expect(finalActions(second)[0]).toMatchObject({ status: "truncated", content: "one two three four " });
    const third = await send(app, builder, { continue: true });
    // The model is shown the whole answer so far, once.
    expect(server.chats[2]!.messages.at(-2)!.content).toBe(
      'Start.\n<action type="add_file" path="a.txt">\none two three four ',
    );
    expect(finalActions(third)[0]).toMatchObject({
      status: "complete",
      content: "one two three four five\n",
    });
    expect(await currentFiles(app.id)).toEqual({ "a.txt": "one two three four five\n" });
  });
});

describe("stop, failure and retry", () => {
  it("a stopped answer is incomplete: the model call is aborted, complete actions applied, the open one never", async () => {
    const { builder, app } = await spaceOf();
    const big = Array.from({ length: 400 }, (_, i) => `line ${i}`).join("\n");
    server.script({
      text: `Two files.\n<action type="add_file" path="a.txt">\nfirst file\n</action>\n<action type="add_file" path="b.txt">\n${big}\n</action>\nDone.`,
      chunkDelayMs: 10,
    });
    const abort = new AbortController();
    const res = await post(app, builder, { text: "Two files" }, abort.signal);
    const answerId = res.headers.get(CHAT_MESSAGE_ID_HEADER)!;
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let seen = "";
    while (!seen.includes(`"id":"${answerId}:1"`)) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += decoder.decode(value, { stream: true });
    }
    abort.abort();
    await reader.cancel().catch(() => {});

    const stored = await eventually(
      () => findChatMessage(app.id, answerId),
      (m) => m?.status !== "streaming",
    );
    expect(stored!.status).toBe("incomplete");
    const actions = stored!.actions as ChatAction[];
    expect(actions.map((a) => [a.file, a.status, a.applied])).toEqual([
      ["a.txt", "complete", true],
      ["b.txt", "incomplete", false],
    ]);
    expect(await currentFiles(app.id)).toEqual({ "a.txt": "first file\n" });
    expect(stored!.versionId).not.toBeNull();
    // The model's request was closed by us, long before its answer ended.
    await eventually(
      async () => server.clientClosed.length,
      (n) => n === 1,
    );
    expect(server.clientClosed).toHaveLength(1);

    // The chat is free again at once.
    const next = await send(app, builder, { text: "A home page" });
    expect(next.status).toBe(200);
  });

  it("a NUL the model writes is dropped before the answer and its file are stored", async () => {
    const { builder, app } = await spaceOf();
    server.script('Here\u0000 it is.\n<action type="add_file" path="notes.txt">\na\u0000b\n</action>');
    const res = await send(app, builder, { text: "A note" });
    expect(res.status).toBe(200);
    expect(res.parts.at(-1), JSON.stringify(res.parts)).toMatchObject({ type: "finish" });
    expect(finishOf(res)!.messageMetadata.status).toBe("complete");
    const stored = (await findChatMessage(app.id, startOf(res).messageId))!;
    expect(stored.content).toBe("Here it is.");
    expect(await currentFiles(app.id)).toEqual({ "notes.txt": "ab\n" });
  });

  it("an answer that cannot be stored still ends at once: failed, and the chat takes the next message", async () => {
    const { builder, app } = await spaceOf();
    // Records nested deeper than JSON can be written back (the driver's JSON.stringify overflows
    // its stack): neither the answer nor its progress can be stored.
    const depth = 200_000;
    server.script(
      `Adding.\n<action type="insert_entity_records" name="Task">${"[".repeat(depth)}${"]".repeat(depth)}</action>`,
    );
    const res = await send(app, builder, { text: "Deep records" });
    expect(res.status).toBe(200);
    expect(res.parts.at(-1)).toEqual({ type: "error", errorText: messages.chatAssistantFailed });
    const stored = (await findChatMessage(app.id, startOf(res).messageId))!;
    expect(stored.status).toBe("failed");
    const next = await send(app, builder, { text: "Something simpler" });
    expect(next.status, JSON.stringify(next.json)).toBe(200);
  });

  it("a failed answer says so, applies nothing, and the retry answers the same message again", async () => {
    const { builder, app } = await spaceOf();
    await send(app, builder, { text: "A home page" });
    const before = await currentFiles(app.id);

    const res = await send(app, builder, { text: "Please fail now" });
    expect(res.status).toBe(200);
    const answerId = startOf(res).messageId;
    const userMessageId = startOf(res).messageMetadata.userMessageId!;
    expect(res.parts.slice(-2)).toEqual([
      {
        type: "message-metadata",
        messageMetadata: expect.objectContaining({ status: "failed", error: expect.stringContaining("500") }),
      },
      { type: "error", errorText: messages.chatAssistantFailed },
    ]);
    expect(messages.chatAssistantFailed).toBe(
      "There was an error. You can retry or try a different input. Contact us if the issue persists.",
    );
    expect(res.done).toBe(true);
    // The AI SDK tried twice (one retry) before giving up.
    expect(server.chats).toHaveLength(3);
    const failed = (await findChatMessage(app.id, answerId))!;
    expect(failed).toMatchObject({ status: "failed", versionId: null });
    expect(failed.error).toContain("The demo model was asked to fail.");
    expect(await currentFiles(app.id)).toEqual(before);
    // It reached the model: it records the files of its prompt, as a finished answer does.
    const failedView = (await history(app, builder)).find((m) => m.id === answerId)!;
    expect(failedView.annotations[0]).toMatchObject({
      status: "failed",
      contextFiles: ["pages/Home.jsx"],
      contextMetadata: {
        retrievedFiles: [
          {
            filePath: "pages/Home.jsx",
            retrievalMethods: ["current files"],
            tokenEstimation: Math.ceil(before["pages/Home.jsx"]!.length / 4),
          },
        ],
        relevantFiles: ["pages/Home.jsx"],
        belowThresholdFiles: [],
      },
    });

    // Only the last user message can be retried.
    const firstUser = (await history(app, builder))[0]!;
    const wrong = await send(app, builder, { retryMessageId: firstUser.id });
    expect(wrong.status).toBe(400);
    expect(wrong.json!.error).toEqual({ code: "RETRY_NOT_LAST", message: messages.chatRetryOnlyLast });

    const retry = await send(app, builder, { retryMessageId: userMessageId });
    expect(retry.status).toBe(200);
    expect(startOf(retry).messageMetadata).toMatchObject({
      userMessageId: null,
      removedMessageIds: [answerId],
    });
    expect(finishOf(retry)!.messageMetadata.status).toBe("complete");
    expect(server.chats.at(-1)!.messages.at(-1)).toEqual({ role: "user", content: "Please fail now" });
    const msgs = await history(app, builder);
    expect(msgs.map((m) => m.annotations[0].status)).toEqual([
      "complete",
      "complete",
      "complete",
      "complete",
    ]);
    expect(msgs.map((m) => m.id)).not.toContain(answerId);
    expect(msgs[2]!.id).toBe(userMessageId);
  });

  it("an answer whose stream breaks mid-way fails and still records the files of its prompt", async () => {
    const { builder, app } = await spaceOf();
    await send(app, builder, { text: "A home page" });
    const big = `// ${"y".repeat(SPACE_PROMPT_FILES_BUDGET)}\n`;
    await applyFileChanges(app.id, [{ type: "add_file", path: "components/Huge.jsx", content: big }], {
      kind: "edit",
    });
    // The connection to the model drops after a few words, twice (the SDK does not retry a stream
    // that has started, but a second reply is queued should it).
    const dropped = {
      text: "I will change the page now, word by word, until the line drops.",
      dropAfterChunks: 4,
    };
    server.script(dropped, dropped);
    const res = await send(app, builder, { text: "Change the title to Broken" });
    expect(res.parts.at(-1)).toEqual({ type: "error", errorText: messages.chatAssistantFailed });
    const stored = (await findChatMessage(app.id, startOf(res).messageId))!;
    expect(stored.status).toBe("failed");
    expect(stored.contextFiles).toEqual(["pages/Home.jsx"]);
    expect(stored.contextMetadata).toMatchObject({
      relevantFiles: ["components/Huge.jsx", "pages/Home.jsx"],
      belowThresholdFiles: [{ filename: "components/Huge.jsx", tokenEstimation: Math.ceil(big.length / 4) }],
    });
  });

  it("records the files of its prompt as soon as the model is called, while the answer still streams", async () => {
    const { builder, app } = await spaceOf();
    await send(app, builder, { text: "A home page" });
    server.script({ text: "Thinking about it slowly, one word at a time, for a while.", chunkDelayMs: 100 });
    const abort = new AbortController();
    const res = await post(app, builder, { text: "Tell me slowly" }, abort.signal);
    const answerId = res.headers.get(CHAT_MESSAGE_ID_HEADER)!;
    // Should its server die now, the stale answer still says what its prompt held.
    const streaming = await eventually(
      () => findChatMessage(app.id, answerId),
      (m) => Array.isArray(m?.contextFiles),
    );
    expect(streaming).toMatchObject({ status: "streaming", contextFiles: ["pages/Home.jsx"] });
    abort.abort();
    await res.body!.cancel().catch(() => {});
    await eventually(
      () => findChatMessage(app.id, answerId),
      (m) => m?.status !== "streaming",
    );
  });

  it("a model that is down fails the answer without a word; nothing changes", async () => {
    const { builder, app } = await spaceOf();
    server.script(
      { status: 503, message: "Overloaded", retryAfterMs: 10 },
      { status: 503, message: "Overloaded", retryAfterMs: 10 },
    );
    const res = await send(app, builder, { text: "A page" });
    expect(res.parts.map((p) => p.type)).toEqual(["start", "message-metadata", "error"]);
    const stored = (await findChatMessage(app.id, startOf(res).messageId))!;
    expect(stored.status).toBe("failed");
    expect(stored.error).toContain("503");
    expect(await versionCount(app.id)).toBe(0);
    // The model was asked (about an app without files): an empty record, not none.
    expect(stored.contextFiles).toEqual([]);
    expect(stored.contextMetadata).toEqual({
      retrievedFiles: [],
      relevantFiles: [],
      belowThresholdFiles: [],
    });
  });
});

describe("one answer at a time", () => {
  it("a second tab is refused with 409 while an answer streams; the answers never mix into one version", async () => {
    const { builder, app } = await spaceOf();
    server.script({
      text: 'Slow.\n<action type="add_file" path="one.txt">\none\n</action>\nDone slowly.',
      chunkDelayMs: 15,
    });
    const first = await post(app, builder, { text: "First tab" });
    expect(first.status).toBe(200);

    const second = await send(app, builder, { text: "Second tab" });
    expect(second.status).toBe(409);
    expect(second.json!.error).toEqual({ code: "CHAT_BUSY", message: messages.chatBusy });
    const busyContinue = await send(app, builder, { retryMessageId: crypto.randomUUID() });
    expect(busyContinue.status).toBe(409);

    const { parts } = parseParts(await first.text());
    expect(parts.at(-1)).toMatchObject({ type: "finish", messageMetadata: { status: "complete" } });
    expect(await currentFiles(app.id)).toEqual({ "one.txt": "one\n" });
    expect(await versionCount(app.id)).toBe(1);
    // The refused message was not stored.
    expect((await history(app, builder)).map((m) => m.content)).toEqual([
      "First tab",
      "Slow.\n\nDone slowly.",
    ]);
  });

  it("two tabs sending at the same moment: exactly one streams", async () => {
    const { builder, app } = await spaceOf();
    const [a, b] = await Promise.all([
      post(app, builder, { text: "Tab A wants a page" }),
      post(app, builder, { text: "Tab B wants a page" }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    const winner = a.status === 200 ? a : b;
    const loser = a.status === 200 ? b : a;
    expect(((await loser.json()) as { error: { code: string } }).error.code).toBe("CHAT_BUSY");
    const { parts } = parseParts(await winner.text());
    expect(parts.at(-1)).toMatchObject({ type: "finish" });
    expect(await versionCount(app.id)).toBe(1);
    expect((await history(app, builder)).filter((m) => m.role === "user")).toHaveLength(1);
  });
});

describe("a long answer", () => {
  it("saves what it has every few seconds while it streams (it is never taken for a dead one)", async () => {
    const { builder, app } = await spaceOf();
    const words = Array.from({ length: 70 }, (_, i) => `word${i}`).join(" ");
    server.script({
      text: `Writing.\n<action type="add_file" path="notes.txt">\n${words}\n</action>\nDone.`,
      chunkDelayMs: 100,
    });
    const res = await post(app, builder, { text: "Slow notes" });
    const answerId = res.headers.get(CHAT_MESSAGE_ID_HEADER)!;
    const body = res.text();
    const saved = await eventually(
      () => findChatMessage(app.id, answerId),
      (m) => (m?.actions.length ?? 0) > 0,
      6000,
    );
    expect(saved).toMatchObject({ status: "streaming", content: "Writing." });
    expect(saved!.actions[0]).toMatchObject({ file: "notes.txt", status: "streaming" });
    expect((saved!.actions[0] as ChatAction).content.length).toBeGreaterThan(0);
    await body;
    expect((await findChatMessage(app.id, answerId))!.status).toBe("complete");
  });
});

describe("discuss mode", () => {
  it("answers in prose and changes nothing, even when the model writes an action", async () => {
    const { builder, app } = await spaceOf();
    await send(app, builder, { text: "A home page" });
    const before = await currentFiles(app.id);

    const res = await send(app, builder, { text: "What would you improve?", discussMode: true });
    expect(systemOf(1)).toContain(DISCUSS_MODE_LINE);
    expect(prose(res)).toContain("Discuss mode: nothing was changed.");
    expect(startOf(res).messageMetadata.discussMode).toBe(true);
    expect(finalActions(res)).toEqual([]);

    server.script('Sure.\n<action type="delete_file" path="pages/Home.jsx"></action>\nDone.');
    const sneaky = await send(app, builder, { text: "Delete it", discussMode: true });
    expect(finalActions(sneaky)).toEqual([]);
    expect(prose(sneaky)).toBe("Sure.\n\nDone.");
    expect(await currentFiles(app.id)).toEqual(before);
    expect(await versionCount(app.id)).toBe(1);
    const msgs = await history(app, builder);
    expect(msgs.slice(-2).map((m) => m.annotations[0].discussModeMetadata.isDiscussMode)).toEqual([
      true,
      true,
    ]);
  });
});

describe("the request", () => {
  it("refuses bodies without exactly one intent, empty or too long text, and bodies over the cap", async () => {
    const { builder, app } = await spaceOf();
    for (const body of [
      {},
      { text: "  " },
      { text: "a", continue: true },
      { text: "x".repeat(CHAT_MESSAGE_MAX + 1) },
    ]) {
      const res = await send(app, builder, body);
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(400);
    }
    const huge = await send(app, builder, JSON.stringify({ text: "x".repeat(200 * 1024) }));
    expect(huge.status).toBe(413);
    expect(server.chats).toHaveLength(0);
    expect(await history(app, builder)).toEqual([]);
  });

  it("only the app's owner may chat: another builder 404, an end user 403, a non-space app 400", async () => {
    const { builder, app } = await spaceOf();
    const other = await createBuilder();
    const b = await send(app, other, { text: "Let me in" });
    expect(b.status).toBe(404);
    expect(b.json!.error.message).toBe(messages.appNotFound);
    const endUser = await createEndUser(app.id);
    expect((await send(app, endUser, { text: "Let me in" })).status).toBe(403);
    const admin = await createBuilder({ isAdmin: true });
    const byAdmin = await send(app, admin, { text: "An admin's page" });
    expect(byAdmin.status).toBe(200);
    expect(server.chats).toHaveLength(1);
    expect((await history(app, builder)).map((m) => m.content)).toContain("An admin's page");

    const toolApp = await createSpaceApp(builder.account.accountId);
    await db().update(apps).set({ type: "tool" }).where(eq(apps.id, toolApp.id));
    const notSpace = await send(toolApp, builder, { text: "Hi" });
    expect(notSpace.status).toBe(400);
    expect(notSpace.json!.error.code).toBe("NOT_SPACE_APP");
  });
});
