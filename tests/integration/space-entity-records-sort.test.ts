import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as recordRoute from "@/app/api/apps/[appId]/entities/[entity]/records/[recordId]/route";
import * as recordsRoute from "@/app/api/apps/[appId]/entities/[entity]/records/route";
import { db } from "@/db/client";
import { insertEntityRecords } from "@/db/queries/entity-records";
import type { App } from "@/db/schema";
import { messages } from "@/lib/messages";
import type { EntityRecordPage, EntityRecordView } from "@/lib/space/entity-records";
import type { createBuilder } from "../support/factories";
import { type Answer, call } from "../support/http";
import { builderAppWithEntity } from "../support/space";

// The Database panel's records list sorted by a column (?sort=field, -field descending): ties by
// id, cursor paging exact under every sort (each record once, in order, whatever the page size),
// and every malformed sort or cursor a 400, never a 5xx.

type Builder = Awaited<ReturnType<typeof createBuilder>>;

const ITEM = JSON.stringify({
  type: "object",
  properties: {
    title: { type: "string" },
    amount: { type: "number" },
    tags: { type: "array", items: { type: "string", enum: ["a", "b"] } },
    meta: { type: "object", properties: { city: { type: "string" } } },
  },
});

const itemApp = () => builderAppWithEntity("Item", ITEM);

const list = (app: App, b: Builder, query: string) =>
  call<EntityRecordPage & Answer & { error?: { field?: string } }>(recordsRoute.GET, {
    method: "GET",
    path: `/api/apps/${app.id}/entities/Item/records?${query}`,
    params: { appId: app.id, entity: "Item" },
    token: b.token,
  });

/** Every page of a sort, `limit` at a time: the records in the order the pages gave them. */
async function allPages(app: App, b: Builder, sort: string, limit: number): Promise<EntityRecordView[]> {
  const seen: EntityRecordView[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const q = new URLSearchParams({ sort, limit: String(limit), ...(cursor ? { cursor } : {}) });
    const page = await list(app, b, q.toString());
    expect(page.status, JSON.stringify(page.json)).toBe(200);
    seen.push(...page.json.records);
    cursor = page.json.nextCursor;
    if (!cursor) return seen;
  }
  throw new Error("more than 100 pages");
}

const ids = (records: EntityRecordView[]) => records.map((r) => r.id);

/** Records with ties, missing values, numbers whose text order differs from their order. */
async function seed(app: App) {
  const data: Record<string, unknown>[] = [
    { title: "pear", amount: 9 },
    { title: "apple", amount: 10 },
    { title: "fig", amount: 100 },
    { title: "apple", amount: -1 },
    { amount: 2.5 },
    { title: "kiwi" },
    { title: "apple", amount: 10 },
    { title: "date", amount: 0, tags: ["b"] },
    { title: "fig", amount: 3, tags: ["a", "b"] },
    { title: "banana", amount: 42, meta: { city: "Oslo" } },
    { title: "cherry", amount: 7 },
  ];
  // One INSERT: they share one created_at, so createdAt ties are broken by id too.
  await insertEntityRecords(
    app.id,
    "Item",
    data.map((d) => ({ creatorId: null, data: d })),
  );
}

describe("the records list sorted by a column", () => {
  it("sorts by a text field both ways, ties by id, every record once at any page size", async () => {
    const { b, app } = await itemApp();
    await seed(app);
    const full = await allPages(app, b, "title", 200);
    expect(full).toHaveLength(11);
    // A missing value sorts first ascending (JSON null is the least value), then the texts.
    expect(full.map((r) => r.data.title ?? null)).toEqual([
      null,
      "apple",
      "apple",
      "apple",
      "banana",
      "cherry",
      "date",
      "fig",
      "fig",
      "kiwi",
      "pear",
    ]);
    // Equal titles in id order.
    const apples = full.filter((r) => r.data.title === "apple").map((r) => r.id);
    expect(apples).toEqual([...apples].sort());
    for (const limit of [1, 2, 3, 5]) expect(ids(await allPages(app, b, "title", limit))).toEqual(ids(full));
    const down = await allPages(app, b, "-title", 200);
    expect(ids(down)).toEqual(ids(full).reverse());
    expect(ids(await allPages(app, b, "-title", 2))).toEqual(ids(down));
  });

  it("sorts numbers as numbers, and by id, creatorId, a list and an object field", async () => {
    const { b, app } = await itemApp();
    await seed(app);
    const byAmount = await allPages(app, b, "-amount", 3);
    expect(byAmount.map((r) => r.data.amount ?? null)).toEqual([100, 42, 10, 10, 9, 7, 3, 2.5, 0, -1, null]);
    const byId = await allPages(app, b, "id", 4);
    expect(ids(byId)).toEqual([...ids(byId)].sort());
    expect(await allPages(app, b, "creatorId", 4)).toHaveLength(11);
    const byTags = await allPages(app, b, "-tags", 2);
    expect(byTags.slice(0, 2).map((r) => r.data.tags)).toEqual([["b"], ["a", "b"]]);
    expect(byTags).toHaveLength(11);
    const byMeta = await allPages(app, b, "-meta", 5);
    expect(byMeta[0]!.data.meta).toEqual({ city: "Oslo" });
    expect(byMeta).toHaveLength(11);
  });

  it("pages by createdAt both ways along the index, exact to the microsecond", async () => {
    const { b, app } = await itemApp();
    for (let i = 1; i <= 7; i++)
      await insertEntityRecords(app.id, "Item", [{ creatorId: null, data: { title: `t${i}` } }]);
    await db().execute(sql`
      update entity_records
      set created_at = timestamptz '2026-11-01 12:00:00.000100+00' + (substr(data->>'title', 2)::int * interval '1 microsecond')
      where app_id = ${app.id}`);
    const titles = (rs: EntityRecordView[]) => rs.map((r) => r.data.title);
    expect(titles(await allPages(app, b, "createdAt", 2))).toEqual([
      "t1",
      "t2",
      "t3",
      "t4",
      "t5",
      "t6",
      "t7",
    ]);
    expect(titles(await allPages(app, b, "-createdAt", 3))).toEqual([
      "t7",
      "t6",
      "t5",
      "t4",
      "t3",
      "t2",
      "t1",
    ]);
    // The default is newest first.
    expect(titles((await list(app, b, "limit=2")).json.records)).toEqual(["t7", "t6"]);
  });

  it("stays exact when the page's last record is deleted or edited before the next page", async () => {
    const { b, app } = await itemApp();
    await seed(app);
    const first = await list(app, b, "sort=title&limit=4");
    const last = first.json.records.at(-1)!;
    await call(recordRoute.DELETE, {
      method: "DELETE",
      path: `/api/apps/${app.id}/entities/Item/records/${last.id}`,
      params: { appId: app.id, entity: "Item", recordId: last.id },
      token: b.token,
    });
    const q = new URLSearchParams({ sort: "title", limit: "200", cursor: first.json.nextCursor! });
    const rest = await list(app, b, q.toString());
    expect(rest.status).toBe(200);
    expect(
      [...first.json.records.slice(0, 3), ...rest.json.records].map((r) => r.data.title ?? null),
    ).toEqual([null, "apple", "apple", "banana", "cherry", "date", "fig", "fig", "kiwi", "pear"]);
  });

  it("pages exactly through texts longer than the compared part (they tie, and ties go by id)", async () => {
    const { b, app } = await itemApp();
    const long = "x".repeat(400);
    await insertEntityRecords(
      app.id,
      "Item",
      Array.from({ length: 9 }, (_, i) => ({ creatorId: null, data: { title: `${long}${9 - i}\n"é😀` } })),
    );
    const all = await allPages(app, b, "title", 2);
    expect(new Set(ids(all)).size).toBe(9);
    expect(ids(all)).toEqual([...ids(all)].sort());
    expect(ids(await allPages(app, b, "-title", 4))).toEqual(ids(all).reverse());
  });

  it("answers 400 to an unknown, nested, huge or unstorable sort field, and to a cursor that is not the sort's", async () => {
    const { b, app } = await itemApp();
    await seed(app);
    const page = await list(app, b, "sort=title&limit=2");
    const fieldCursor = page.json.nextCursor!;
    const createdCursor = (await list(app, b, "limit=2")).json.nextCursor!;
    const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64url");
    const id = "00000000-0000-4000-8000-000000000000";
    const bad: [string, string][] = [
      ["sort=nope", messages.entityRecordSortInvalid],
      ["sort=-nope", messages.entityRecordSortInvalid],
      ["sort=meta.city", messages.entityRecordSortInvalid],
      ["sort=", messages.entityRecordSortInvalid],
      ["sort=--title", messages.entityRecordSortInvalid],
      [`sort=${"a".repeat(10_000)}`, ""],
      ["sort=ti%00tle", ""],
      ["sort=%ED%A0%80", ""],
      [`sort=title&cursor=${encodeURIComponent(createdCursor)}`, messages.entityRecordCursorInvalid],
      [`cursor=${encodeURIComponent(fieldCursor)}`, messages.entityRecordCursorInvalid],
      [`sort=title&cursor=${b64("{nope")}.${id}`, messages.entityRecordCursorInvalid],
      [`sort=title&cursor=${b64("[1]")}.${id}`, messages.entityRecordCursorInvalid],
      [`sort=title&cursor=${b64('{"a":1}')}.${id}`, messages.entityRecordCursorInvalid],
      [`sort=title&cursor=${b64('"a\\u0000b"')}.${id}`, messages.entityRecordCursorInvalid],
      [`sort=title&cursor=${b64('"\\ud800"')}.${id}`, messages.entityRecordCursorInvalid],
      [`sort=amount&cursor=${b64("1e999")}.${id}`, messages.entityRecordCursorInvalid],
      [`sort=title&cursor=${"A".repeat(5000)}.${id}`, ""],
      [`sort=title&cursor=%00.${id}`, ""],
      ["sort=title&cursor=nonsense", ""],
    ];
    for (const [query, message] of bad) {
      const res = await list(app, b, query);
      expect(res.status, query.slice(0, 80)).toBe(400);
      if (message) expect(res.json.error?.message, query.slice(0, 80)).toBe(message);
    }
    // Cursors of any valid scalar key are taken, found or not.
    for (const key of ["null", "true", "12.5", '"zzz"', '"a\\nb"']) {
      const res = await list(app, b, `sort=title&cursor=${b64(key)}.${id}`);
      expect(res.status, key).toBe(200);
    }
  });
});
