import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as recordRoute from "@/app/api/apps/[appId]/entities/[entity]/records/[recordId]/route";
import * as recordsRoute from "@/app/api/apps/[appId]/entities/[entity]/records/route";
import { db } from "@/db/client";
import type { App } from "@/db/schema";
import { messages } from "@/lib/messages";
import type { EntityRecordPage, EntityRecordView } from "@/lib/space/entity-records";
import { createBuilder } from "../support/factories";
import { type Answer, call } from "../support/http";
import { builderAppWithEntity, say } from "../support/space";

// The Database panel's writes: a new row and the edit of one cell, by the app's builder, checked
// against the entity's JSON schema as the data API checks records.

type Builder = Awaited<ReturnType<typeof createBuilder>>;

const TASK = JSON.stringify({
  type: "object",
  properties: {
    title: { type: "string", maxLength: 100 },
    done: { type: "boolean" },
    priority: { type: "string", enum: ["low", "high"] },
  },
  required: ["title"],
});

const taskApp = () => builderAppWithEntity("Task", TASK);

const create = (app: App, b: Builder, body: unknown, entity = "Task") =>
  call<EntityRecordView & Answer>(recordsRoute.POST, {
    method: "POST",
    path: `/api/apps/${app.id}/entities/${entity}/records`,
    params: { appId: app.id, entity },
    token: b.token,
    body,
  });

const edit = (app: App, b: Builder, recordId: string, body: unknown) =>
  call<EntityRecordView & Answer & { error?: { field?: string } }>(recordRoute.PATCH, {
    method: "PATCH",
    path: `/api/apps/${app.id}/entities/Task/records/${recordId}`,
    params: { appId: app.id, entity: "Task", recordId },
    token: b.token,
    body,
  });

const list = (app: App, b: Builder) =>
  call<EntityRecordPage>(recordsRoute.GET, {
    method: "GET",
    path: `/api/apps/${app.id}/entities/Task/records`,
    params: { appId: app.id, entity: "Task" },
    token: b.token,
  });

const fieldOf = (res: { json: unknown }) => (res.json as { error?: { field?: string } }).error?.field;

describe("a row added in the Database panel", () => {
  it("is stored with the builder as its creator and shows first in the panel's list", async () => {
    const { b, app } = await taskApp();
    const res = await create(app, b, { title: "Buy milk", done: false });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      id: expect.any(String),
      creatorId: b.user.id,
      createdAt: expect.any(String),
      data: { title: "Buy milk", done: false },
    });
    const page = await list(app, b);
    expect(page.json.total).toBe(1);
    expect(page.json.records).toEqual([res.json]);
  });

  it("with no data is refused with the spec's message, before the schema's required fields", async () => {
    const { b, app } = await taskApp();
    for (const body of [{}, { title: "  ", done: null }]) {
      const res = await create(app, b, body);
      expect(res.status).toBe(400);
      expect(res.json.error?.message).toBe("Rows with no data cannot be saved");
      expect(res.json.error?.message).toBe(messages.databaseRowEmpty);
    }
    expect((await list(app, b)).json.total).toBe(0);
  });

  it("is checked against the entity's schema: the field at fault is named; built-in fields and oversized rows refused", async () => {
    const { b, app } = await taskApp();
    const wrongType = await create(app, b, { title: 5 });
    expect(wrongType.status).toBe(400);
    expect(fieldOf(wrongType)).toBe("title");
    const missing = await create(app, b, { done: true });
    expect(missing.status).toBe(400);
    expect(fieldOf(missing)).toBe("title");
    expect(missing.json.error?.message).toBe(`title ${messages.appDataFieldRequired}`);
    const notAnOption = await create(app, b, { title: "A", priority: "urgent" });
    expect(notAnOption.status).toBe(400);
    expect(fieldOf(notAnOption)).toBe("priority");
    const builtIn = await create(app, b, { title: "A", creatorId: b.user.id });
    expect(builtIn.status).toBe(400);
    expect(fieldOf(builtIn)).toBe("creatorId");
    const big = await create(app, b, { title: "A", notes: "x".repeat(11_000) });
    expect(big.status).toBe(413);
    expect((await list(app, b)).json.total).toBe(0);
  });

  it("is 404 on another builder's app, on an unknown entity and on the User entity", async () => {
    const { app } = await taskApp();
    const other = await createBuilder({ plan: "explorer" });
    expect((await create(app, other, { title: "Mine now" })).status).toBe(404);
    const { b, app: own } = await taskApp();
    // The User entity is the app's end users, even when its schema is a file of the version.
    await say(own, b.account.accountId, {
      user: "Users with a nickname",
      answer: "Done",
      changes: [{ type: "add_entity", name: "User", content: '{"type":"object"}' }],
    });
    expect((await create(own, b, { title: "A" }, "Nope")).status).toBe(404);
    const user = await create(own, b, { title: "A" }, "User");
    expect(user.status).toBe(404);
    expect(user.json.error?.message).toBe(messages.entityNotFound);
  });
});

describe("a cell edited in the Database panel", () => {
  it("sets one field, keeps the others, and null clears a field the schema does not require", async () => {
    const { b, app } = await taskApp();
    const row = (await create(app, b, { title: "Buy milk", done: false })).json;
    const done = await edit(app, b, row.id, { field: "done", value: true });
    expect(done.status).toBe(200);
    expect(done.json).toEqual({ ...row, data: { title: "Buy milk", done: true } });
    const cleared = await edit(app, b, row.id, { field: "done", value: null });
    expect(cleared.json.data).toEqual({ title: "Buy milk" });
    expect((await list(app, b)).json.records).toEqual([cleared.json]);
  });

  it("is checked against the schema with the whole record; built-in fields are read-only", async () => {
    const { b, app } = await taskApp();
    const row = (await create(app, b, { title: "Buy milk" })).json;
    const bad = await edit(app, b, row.id, { field: "priority", value: "urgent" });
    expect(bad.status).toBe(400);
    expect(fieldOf(bad)).toBe("priority");
    const required = await edit(app, b, row.id, { field: "title", value: null });
    expect(required.status).toBe(400);
    expect(fieldOf(required)).toBe("title");
    const builtIn = await edit(app, b, row.id, { field: "createdAt", value: "2020-01-01T00:00:00.000Z" });
    expect(builtIn.status).toBe(400);
    expect(fieldOf(builtIn)).toBe("createdAt");
    const noValue = await edit(app, b, row.id, { field: "title" });
    expect(noValue.status).toBe(400);
    expect((await list(app, b)).json.records[0]?.data).toEqual({ title: "Buy milk" });
  });

  it("is 404 for an unknown record and on another builder's app", async () => {
    const { b, app } = await taskApp();
    const row = (await create(app, b, { title: "Buy milk" })).json;
    expect((await edit(app, b, crypto.randomUUID(), { field: "done", value: true })).status).toBe(404);
    const other = await createBuilder({ plan: "explorer" });
    expect((await edit(app, other, row.id, { field: "title", value: "Mine" })).status).toBe(404);
  });

  it("is 409 when the record changed between its read and its write, and the other change stays", async () => {
    const { b, app } = await taskApp();
    const row = (await create(app, b, { title: "Buy milk" })).json;
    let answer: Awaited<ReturnType<typeof edit>> | undefined;
    // Another writer changes the row and holds its lock: the edit reads the row as it was, then
    // waits on the lock; once the other commits, the row is no longer as the edit read it.
    await db().transaction(async (tx) => {
      await tx.execute(
        sql`update entity_records set data = '{"title":"Buy oat milk"}', updated_at = updated_at + interval '1 second' where id = ${row.id}`,
      );
      const pending = edit(app, b, row.id, { field: "done", value: true }).then((r) => {
        answer = r;
      });
      pending.catch(() => {});
      const deadline = Date.now() + 20_000;
      for (;;) {
        // Asked outside the transaction: inside it, pg_stat_activity would answer the same snapshot.
        const waiting = await db().execute<{ n: number }>(
          sql`select count(*)::int as n from pg_stat_activity where datname = current_database()
                and wait_event_type = 'Lock' and query ilike '%update%entity_records%'`,
        );
        if ((waiting.rows[0]?.n ?? 0) > 0) break;
        if (Date.now() > deadline) throw new Error("the edit never waited on the row's lock");
        await new Promise((r) => setTimeout(r, 20));
      }
    });
    for (let i = 0; i < 1000 && !answer; i++) await new Promise((r) => setTimeout(r, 10));
    expect(answer?.status).toBe(409);
    expect(answer?.json.error?.message).toBe(messages.appDataRecordChanged);
    expect((await list(app, b)).json.records[0]?.data).toEqual({ title: "Buy oat milk" });
  });
});
