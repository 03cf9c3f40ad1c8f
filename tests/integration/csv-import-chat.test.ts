import { and, eq } from "drizzle-orm";
import { NextRequest } from "next/server";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import * as chatRoute from "@/app/api/apps/[appId]/chat/route";
import * as importRoute from "@/app/api/apps/[appId]/entities/[entity]/imports/[importId]/route";
import { db } from "@/db/client";
import { type App, chatMessages, entityImports, entityRecords } from "@/db/schema";
import type { CsvImportView } from "@/lib/app-data/csv-import";
import { runDueJobs } from "@/lib/jobs/worker";
import { messages } from "@/lib/messages";
import { type ChatAction, ChatStreamPart } from "@/lib/space/chat-schemas";
import { fillTemplate } from "@/lib/text";
import { createBuilder } from "../support/factories";
import { call } from "../support/http";
import { openAiServerEnv, startOpenAiServer } from "../support/openai-server";
import { createSpaceApp, say } from "../support/space";

// The chat's import_entities action runs through the same importer as the Database panel's
// upload: the real chat route, the AI SDK over HTTP to a local OpenAI-compatible server answering
// with the action, the import stored and queued as the csv-import job, the job run as the worker
// runs it; the action keeps the import's id (its card follows it) or why none was started.

const server = await startOpenAiServer();
for (const name of ["OPENAI_API_KEY", "AI_DEFAULT_MODEL"]) delete process.env[name];
Object.assign(process.env, openAiServerEnv(server));
afterAll(() => server.close());
beforeEach(() => server.reset());

type Builder = Awaited<ReturnType<typeof createBuilder>>;

const TASK = JSON.stringify({
  type: "object",
  properties: {
    title: { type: "string", maxLength: 20 },
    done: { type: "boolean" },
    tags: { type: "array", items: { type: "string", enum: ["home", "work", "errands"] } },
  },
  required: ["title"],
});

/** One chat exchange answered with `answer`: the final state of each action, and the answer's id. */
async function chat(app: App, b: Builder, answer: string, discussMode = false) {
  server.setResponder(() => answer);
  const res = await chatRoute.POST(
    new NextRequest(new URL(`/api/apps/${app.id}/chat`, "http://localhost:3000"), {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${b.token}` },
      body: JSON.stringify({ text: "Import my tasks", discussMode }),
    }),
    { params: Promise.resolve({ appId: app.id }) },
  );
  expect(res.status).toBe(200);
  const messageId = res.headers.get("x-chat-message-id")!;
  const last = new Map<string, ChatAction>();
  for (const event of (await res.text()).split("\n\n")) {
    if (!event.startsWith("data: {")) continue;
    const part = ChatStreamPart.parse(JSON.parse(event.slice(6)));
    if (part.type === "data-action") last.set(part.id, part.data);
  }
  return { actions: [...last.values()], messageId };
}

const importAction = (name: string, body: unknown) =>
  `<action type="import_entities" name="${name}">${typeof body === "string" ? body : JSON.stringify(body)}</action>`;

const progress = (app: App, b: Builder, importId: string) =>
  call<CsvImportView>(importRoute.GET, {
    method: "GET",
    path: `/api/apps/${app.id}/entities/Task/imports/${importId}`,
    params: { appId: app.id, entity: "Task", importId },
    token: b.token,
  });

const recordsOf = async (app: App) =>
  (
    await db()
      .select({ data: entityRecords.data, creatorId: entityRecords.creatorId })
      .from(entityRecords)
      .where(eq(entityRecords.appId, app.id))
  )
    .map((r) => r.data)
    .sort((x, y) => String(x.title).localeCompare(String(y.title)));

const storedActions = async (app: App, messageId: string) =>
  (
    await db()
      .select({ actions: chatMessages.actions })
      .from(chatMessages)
      .where(and(eq(chatMessages.appId, app.id), eq(chatMessages.id, messageId)))
  )[0]!.actions as ChatAction[];

describe("import_entities in the chat", () => {
  it("imports the action's CSV by its mapping into an entity the answer adds, as the import job", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await createSpaceApp(b.account.accountId);
    const csv =
      "Task name,Done,Labels,Notes\nBuy milk,yes,home;errands,x\nCall mum,no,,y\nA title far too long for it,yes,,z\n";
    const { actions, messageId } = await chat(
      app,
      b,
      [
        "Here are your tasks.",
        `<action type="add_entity" name="Task">${TASK}</action>`,
        importAction("Task", {
          csv,
          mapping: [
            { csvHeader: "Task name", schemaField: "title" },
            { csvHeader: "Done", schemaField: "done" },
            { csvHeader: "Labels", schemaField: "tags", splitCharacter: ";" },
            { csvHeader: "Notes", schemaField: null },
          ],
        }),
      ].join("\n"),
    );
    const action = actions.find((a) => a.type === "import_entities")!;
    expect(action).toMatchObject({ applied: true, status: "complete" });
    expect(action.importId).toEqual(expect.any(String));
    expect(action.importProblem).toBeUndefined();
    // Stored with the answer: the card follows the import after a reload too.
    expect((await storedActions(app, messageId)).find((a) => a.type === "import_entities")).toMatchObject({
      applied: true,
      importId: action.importId,
    });
    expect((await progress(app, b, action.importId!)).json).toMatchObject({ status: "queued", imported: 0 });

    // The same job as an upload's.
    expect(await runDueJobs()).toBeGreaterThanOrEqual(1);
    const done = await progress(app, b, action.importId!);
    expect(done.json).toMatchObject({ status: "complete", total: 3, imported: 2, failed: 1 });
    expect(done.json.message).toBe(fillTemplate(messages.csvImportPartial, { n: 1, total: 3 }));
    expect(done.json.failedRows.map((r) => r.row)).toEqual([3]);
    expect(await recordsOf(app)).toEqual([
      { title: "Buy milk", done: true, tags: ["home", "errands"] },
      { title: "Call mum", done: false },
    ]);
    const [row] = await db().select().from(entityRecords).where(eq(entityRecords.appId, app.id)).limit(1);
    expect(row!.creatorId).toBe(b.user.id);
  });

  it("without a mapping fills each field from the column of its name, case aside", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await createSpaceApp(b.account.accountId);
    await say(app, b.account.accountId, {
      user: "Tasks",
      answer: "Done",
      changes: [{ type: "add_entity", name: "Task", content: TASK }],
    });
    const { actions } = await chat(
      app,
      b,
      importAction("Task", { csv: "TITLE,done,Other\nOne,true,x\nTwo,false,y" }),
    );
    expect(actions.map((a) => [a.type, a.applied])).toEqual([["import_entities", true]]);
    await runDueJobs();
    expect((await progress(app, b, actions[0]!.importId!)).json.message).toBe(
      fillTemplate(messages.csvImportAll, { total: 2 }),
    );
    expect(await recordsOf(app)).toEqual([
      { title: "One", done: true },
      { title: "Two", done: false },
    ]);
  });

  it("starts no import, and says why on the action, for a body, entity or file it cannot use, or in discuss mode", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await createSpaceApp(b.account.accountId);
    await say(app, b.account.accountId, {
      user: "Tasks",
      answer: "Done",
      changes: [{ type: "add_entity", name: "Task", content: TASK }],
    });
    const cases: [string, string][] = [
      [importAction("Task", '{"source":"tasks.csv","mapping":{}}'), messages.chatImportBodyInvalid],
      [importAction("Task", "not json"), messages.chatImportBodyInvalid],
      [importAction("Ghost", { csv: "title\nBoo" }), messages.entityNotFound],
      [importAction("User", { csv: "email\na@b.c" }), messages.entityNotFound],
      [importAction("Task", { csv: "  \n" }), messages.csvEmpty],
      [importAction("Task", { csv: "title,done\n,\n" }), messages.csvNoRows],
      [
        importAction("Task", { csv: "Colour,Size\nred,L" }),
        fillTemplate(messages.chatImportNoColumn, { name: "Task" }),
      ],
      [
        importAction("Task", { csv: "A,B\n1,2", mapping: [{ csvHeader: "A", schemaField: "nope" }] }),
        fillTemplate(messages.chatImportNoColumn, { name: "Task" }),
      ],
    ];
    for (const [answer, problem] of cases) {
      const { actions, messageId } = await chat(app, b, answer);
      expect(actions.map((a) => [a.applied, a.importProblem])).toEqual([[false, problem]]);
      expect((await storedActions(app, messageId))[0]).toMatchObject({
        applied: false,
        importProblem: problem,
      });
    }
    const discuss = await chat(app, b, importAction("Task", { csv: "title\nMaybe" }), true);
    expect(discuss.actions.every((a) => !a.applied && !a.importId)).toBe(true);
    expect(await db().select().from(entityImports).where(eq(entityImports.appId, app.id))).toEqual([]);
    expect(await recordsOf(app)).toEqual([]);
  });
});
