import { sql } from "drizzle-orm";
import { NextRequest } from "next/server";
import Papa from "papaparse";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import * as chatRoute from "@/app/api/apps/[appId]/chat/route";
import * as exportRoute from "@/app/api/apps/[appId]/entities/[entity]/export/route";
import * as recordRoute from "@/app/api/apps/[appId]/entities/[entity]/records/[recordId]/route";
import * as recordsRoute from "@/app/api/apps/[appId]/entities/[entity]/records/route";
import { db } from "@/db/client";
import { insertEntityRecords } from "@/db/queries/entity-records";
import type { App } from "@/db/schema";
import { messages } from "@/lib/messages";
import { ChatStreamPart } from "@/lib/space/chat-schemas";
import type { EntityRecordPage } from "@/lib/space/entity-records";
import { createBuilder } from "../support/factories";
import { call } from "../support/http";
import { openAiServerEnv, startOpenAiServer } from "../support/openai-server";
import { builderAppWithEntity, createSpaceApp } from "../support/space";

// Records of a space app's entities: the chat's insert_entity_records action stores them (the real
// chat route, the AI SDK over HTTP to a local OpenAI-compatible server answering what each test
// scripts), and the Database panel's routes list them newest first, delete one, export CSV.

const server = await startOpenAiServer();
for (const name of ["OPENAI_API_KEY", "AI_DEFAULT_MODEL"]) delete process.env[name];
Object.assign(process.env, openAiServerEnv(server));
afterAll(() => server.close());
beforeEach(() => server.reset());

type Builder = Awaited<ReturnType<typeof createBuilder>>;

const TASK = '{"type":"object","properties":{"title":{"type":"string"},"done":{"type":"boolean"}}}';

const taskApp = () => builderAppWithEntity("Task", TASK);

/** One chat exchange answered with `answer`; the final state of each action. */
async function chat(app: App, b: Builder, text: string, answer: string, discussMode = false) {
  server.setResponder(() => answer);
  const res = await chatRoute.POST(
    new NextRequest(new URL(`/api/apps/${app.id}/chat`, "http://localhost:3000"), {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${b.token}` },
      body: JSON.stringify({ text, discussMode }),
    }),
    { params: Promise.resolve({ appId: app.id }) },
  );
  expect(res.status).toBe(200);
  const last = new Map<string, { type: string; applied: boolean; status: string }>();
  for (const event of (await res.text()).split("\n\n")) {
    if (!event.startsWith("data: {")) continue;
    const part = ChatStreamPart.parse(JSON.parse(event.slice(6)));
    if (part.type === "data-action") last.set(part.id, part.data);
  }
  return [...last.values()];
}

const records = (app: App, b: Builder, entity: string, query = "") =>
  call<EntityRecordPage>(recordsRoute.GET, {
    method: "GET",
    path: `/api/apps/${app.id}/entities/${entity}/records${query}`,
    params: { appId: app.id, entity },
    token: b.token,
  });

describe("insert_entity_records in the chat", () => {
  it("stores the records of an entity the answer adds, without their built-in fields; the action is applied", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await createSpaceApp(b.account.accountId);
    const actions = await chat(
      app,
      b,
      "Tasks with samples",
      [
        "Here you go.",
        `<action type="add_entity" name="Task">${TASK}</action>`,
        '<action type="insert_entity_records" name="Task">[{"title":"Buy milk","done":false},{"title":"Call mum","done":true,"id":"x","creatorId":"y"}]</action>',
        "Done.",
      ].join("\n"),
    );
    expect(actions.map((a) => [a.type, a.applied])).toEqual([
      ["add_entity", true],
      ["insert_entity_records", true],
    ]);
    const page = await records(app, b, "Task");
    expect(page.status).toBe(200);
    expect(page.json.total).toBe(2);
    expect(
      page.json.records.map((r) => r.data).sort((x, y) => String(x.title).localeCompare(String(y.title))),
    ).toEqual([
      { title: "Buy milk", done: false },
      { title: "Call mum", done: true },
    ]);
    expect(page.json.records[0]!.creatorId).toBe(b.user.id);
  });

  it("is not applied for an entity the app does not have, a body that is not objects, or in discuss mode", async () => {
    const { b, app } = await taskApp();
    const noEntity = await chat(
      app,
      b,
      "Add a ghost",
      '<action type="insert_entity_records" name="Ghost">[{"title":"Boo"}]</action>',
    );
    expect(noEntity.map((a) => a.applied)).toEqual([false]);
    const notObjects = await chat(
      app,
      b,
      "Add numbers",
      '<action type="insert_entity_records" name="Task">[1, 2, 3]</action>',
    );
    expect(notObjects.map((a) => a.applied)).toEqual([false]);
    const discuss = await chat(
      app,
      b,
      "What would you add?",
      '<action type="insert_entity_records" name="Task">[{"title":"Maybe"}]</action>',
      true,
    );
    expect(discuss.every((a) => !a.applied)).toBe(true);
    expect((await records(app, b, "Task")).json.total).toBe(0);
    // A records page of an entity the app does not have.
    const missing = await records(app, b, "Ghost");
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ error: { message: messages.entityNotFound } });
  });
});

describe("the Database panel's record routes", () => {
  async function appWithTasks(n: number) {
    const { b, app } = await taskApp();
    for (let i = 1; i <= n; i++) {
      await insertEntityRecords(app.id, "Task", [
        { creatorId: null, data: { title: `Task ${i}`, done: i % 2 === 0 } },
      ]);
    }
    return { b, app };
  }

  it("pages newest first by cursor, every record once, however close their times", async () => {
    const { b, app } = await appWithTasks(5);
    // One microsecond apart, within one millisecond: a cursor rounded to milliseconds skips some.
    await db().execute(sql`
      update entity_records
      set created_at = timestamptz '2026-11-01 12:00:00.000100+00' + (substr(data->>'title', 6)::int * interval '1 microsecond')
      where app_id = ${app.id}`);
    const seen: string[] = [];
    let query = "?limit=2";
    for (;;) {
      const page = await records(app, b, "Task", query);
      expect(page.status).toBe(200);
      // Counted with the first page; a later one (with a cursor) leaves the count to it.
      expect(page.json.total).toBe(query === "?limit=2" ? 5 : null);
      seen.push(...page.json.records.map((r) => String(r.data.title)));
      if (!page.json.nextCursor) break;
      query = `?limit=2&cursor=${encodeURIComponent(page.json.nextCursor)}`;
    }
    expect(seen).toEqual(["Task 5", "Task 4", "Task 3", "Task 2", "Task 1"]);
    expect((await records(app, b, "Task", "?cursor=nonsense")).status).toBe(400);
  });

  it("deletes one record; a second delete and another entity's record are 404", async () => {
    const { b, app } = await appWithTasks(2);
    const [first] = (await records(app, b, "Task")).json.records;
    const del = (entity: string, id: string) =>
      call(recordRoute.DELETE, {
        method: "DELETE",
        path: `/api/apps/${app.id}/entities/${entity}/records/${id}`,
        params: { appId: app.id, entity, recordId: id },
        token: b.token,
      });
    expect((await del("Task", first!.id)).status).toBe(200);
    const again = await del("Task", first!.id);
    expect(again.status).toBe(404);
    expect(again.json).toMatchObject({ error: { message: messages.entityRecordNotFound } });
    expect((await records(app, b, "Task")).json.total).toBe(1);
  });

  it("exports {entity}_export_{date}.csv: the schema's fields, other keys, 'Entity ID' last; formulas escaped", async () => {
    const { b, app } = await appWithTasks(1);
    await insertEntityRecords(app.id, "Task", [
      { creatorId: null, data: { title: '=HYPERLINK("http://x")', done: true, note: { a: 1 } } },
    ]);
    // Read as the browser downloads it (not JSON).
    const res = await exportRoute.GET(
      new NextRequest(new URL(`/api/apps/${app.id}/entities/Task/export`, "http://localhost:3000"), {
        headers: { authorization: `Bearer ${b.token}` },
      }),
      { params: Promise.resolve({ appId: app.id, entity: "Task" }) },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="Task_export_\d{4}-\d\d-\d\d\.csv"$/,
    );
    const text = await res.text();
    const rows = Papa.parse<string[]>(text.trim()).data;
    expect(rows[0]).toEqual(["title", "done", "note", messages.databaseExportIdColumn]);
    expect(rows[1]!.slice(0, 3)).toEqual(['\'=HYPERLINK("http://x")', "true", '{"a":1}']);
    expect(rows[2]!.slice(0, 3)).toEqual(["Task 1", "false", ""]);
    expect(rows[1]![3]).toMatch(/^[0-9a-f-]{36}$/);
  });
});
