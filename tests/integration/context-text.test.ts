import crypto from "node:crypto";
import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import * as itemRoute from "@/app/api/context/[id]/route";
import * as ingestTextRoute from "@/app/api/context/ingest/text/route";
import * as itemsRoute from "@/app/api/context/items/route";
import { db } from "@/db/client";
import { insertApp } from "@/db/queries/apps";
import { setContextItemStatus } from "@/db/queries/context";
import { listContextChunks } from "@/db/queries/context-content";
import { contextChunks, contextItems } from "@/db/schema";
import { retrieveChunks } from "@/lib/context/retrieve";
import { runContextIngestJob } from "@/lib/jobs/context-ingest";
import { runDueJobs } from "@/lib/jobs/worker";
import { messages } from "@/lib/messages";
import { createBuilder } from "../support/factories";
import { call } from "../support/http";

type Builder = Awaited<ReturnType<typeof createBuilder>>;
type Item = { id: string; name: string; status: string; error: string | null; lastSyncedAt: string | null };
type List = { contextItems: Item[]; hasReachedDataLimit: boolean; error?: { code: string; message: string } };
type Json = { contextItemId?: string; error?: { code: string; message: string } };

async function newApp(b: Builder) {
  return insertApp({ ownerAccountId: b.account.accountId, header: "Data app" });
}

const addText = (b: Builder, appId: string, context: unknown) =>
  call<Json>(ingestTextRoute.POST, {
    path: `/api/context/ingest/text?appId=${appId}`,
    token: b.token,
    body: { context },
  });
const list = (b: Builder, appId: string, status?: string) =>
  call<List>(itemsRoute.GET, {
    method: "GET",
    path: `/api/context/items?appId=${appId}${status ? `&status=${status}` : ""}`,
    token: b.token,
  });
const itemOf = async (id: string) =>
  (await db().select().from(contextItems).where(eq(contextItems.id, id)))[0];

// A text long enough for several chunks, with one rare word deep inside.
const longText = () =>
  `${"Our shop sells bicycles and spare parts. ".repeat(60)}Opening hours: the zanzibarcafe corner is open on Sundays. ${"We repair tyres quickly. ".repeat(60)}`;

describe("text data sources", () => {
  it("adds a text as Pending at once; the job makes chunks and Synced; the list shows it", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const text = longText();

    const res = await addText(b, app.id, text);
    expect(res.status).toBe(200);
    const id = res.json.contextItemId!;
    expect((await itemOf(id))!.status).toBe("pending");
    expect(await listContextChunks(id)).toHaveLength(0);
    const live = await list(b, app.id, "unsynced");
    expect(live.json.contextItems.map((i) => i.id)).toEqual([id]);

    await runDueJobs();
    const item = (await itemOf(id))!;
    expect(item.status).toBe("synced");
    expect(item.lastSyncedAt).toBeInstanceOf(Date);
    const chunks = await listContextChunks(id);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.map((c) => c.position)).toEqual(chunks.map((_, i) => i));
    expect(chunks[0]!.text).toBe(Array.from(text).slice(0, 1000).join(""));

    const all = await list(b, app.id);
    expect(all.status).toBe(200);
    expect(all.json.contextItems).toHaveLength(1);
    expect(all.json.contextItems[0]).toMatchObject({
      id,
      status: "synced",
      type: "txt",
      source: "local files",
    });
    expect(all.json.contextItems[0]).not.toHaveProperty("content");
    expect(all.json.hasReachedDataLimit).toBe(false);
    expect((await list(b, app.id, "unsynced")).json.contextItems).toEqual([]);
  });

  it("running the job again replaces the chunks instead of doubling them", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const id = (await addText(b, app.id, longText())).json.contextItemId!;
    await runDueJobs();
    const first = await listContextChunks(id);
    await runContextIngestJob({ itemId: id }, { finalAttempt: false });
    expect(await listContextChunks(id)).toEqual(first);
    expect((await itemOf(id))!.status).toBe("synced");
  });

  it("refuses an empty or blank text with 'Please enter some text'", async () => {
    const b = await createBuilder();
    const app = await newApp(b);
    for (const context of ["", "   \n ", undefined]) {
      const res = await addText(b, app.id, context);
      expect(res.status).toBe(400);
      expect(res.json.error?.message).toBe(messages.contextEnterText);
    }
    expect((await list(b, app.id)).json.contextItems).toEqual([]);
  });

  it("a source that cannot be read ends in Error with a reason, and the last failed attempt too", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const [blank] = await db()
      .insert(contextItems)
      .values({ appId: app.id, name: "blank", type: "txt", source: "local files", content: "  " })
      .returning();
    await runContextIngestJob({ itemId: blank!.id }, { finalAttempt: false });
    expect(await itemOf(blank!.id)).toMatchObject({ status: "error", error: messages.contextIngestEmpty });

    // A failure a retry may cure (here the database refuses this item's chunks): back to Pending
    // and thrown, for pg-boss to retry with backoff; on the last attempt, Error with a reason.
    const [broken] = await db()
      .insert(contextItems)
      .values({ appId: app.id, name: "broken", type: "txt", source: "local files", content: "some text" })
      .returning();
    const fn = `refuse_chunks_${broken!.id.replaceAll("-", "")}`;
    await db().execute(
      sql.raw(`create function ${fn}() returns trigger language plpgsql as $$ begin
        if new.item_id = '${broken!.id}' then raise exception 'disk full'; end if; return new; end $$;
        create trigger ${fn} before insert on context_chunks for each row execute function ${fn}();`),
    );
    try {
      await expect(runContextIngestJob({ itemId: broken!.id }, { finalAttempt: false })).rejects.toThrow();
      expect((await itemOf(broken!.id))!.status).toBe("pending");
      await runContextIngestJob({ itemId: broken!.id }, { finalAttempt: true });
      expect(await itemOf(broken!.id)).toMatchObject({
        status: "error",
        error: messages.contextIngestFailed,
      });
      expect(await listContextChunks(broken!.id)).toEqual([]);
    } finally {
      await db().execute(sql.raw(`drop trigger ${fn} on context_chunks; drop function ${fn}();`));
    }
  });

  it("a NUL character (which PostgreSQL text cannot hold) is dropped, not a server error", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const res = await addText(b, app.id, "before\u0000after");
    expect(res.status).toBe(200);
    await runDueJobs();
    expect((await listContextChunks(res.json.contextItemId!)).map((c) => c.text)).toEqual(["beforeafter"]);
    const blank = await addText(b, app.id, "\u0000 ");
    expect(blank.status).toBe(400);
    expect(blank.json.error?.message).toBe(messages.contextEnterText);
  });

  it("every status change is announced on the context_items channel", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    const seen: { id: string; appId: string; status: string }[] = [];
    client.on("notification", (n) => seen.push(JSON.parse(n.payload ?? "{}")));
    await client.query("LISTEN context_items");
    try {
      const id = (await addText(b, app.id, "A short note about opening hours.")).json.contextItemId!;
      await runDueJobs();
      await expect
        .poll(() => seen.filter((s) => s.id === id).map((s) => s.status))
        .toEqual(["pending", "running", "synced"]);
      expect(seen.find((s) => s.id === id)!.appId).toBe(app.id);
    } finally {
      await client.end();
    }
  });
});

describe('the app named by the query (route wrapper, app: "edit")', () => {
  it("loads it from ?appId= for its owner; a missing id is 400, an unknown one 404", async () => {
    const b = await createBuilder();
    const app = await newApp(b);
    expect((await list(b, app.id)).status).toBe(200);
    const missing = await call<List>(itemsRoute.GET, {
      method: "GET",
      path: "/api/context/items",
      token: b.token,
    });
    expect(missing.status).toBe(400);
    const unknown = await list(b, crypto.randomUUID());
    expect(unknown.status).toBe(404);
    expect(unknown.json.error?.message).toBe(messages.appNotFound);
  });
});

describe("the plan's data item limit", () => {
  it("lite holds one item: the second gets 403 with the upgrade message; the list says the limit is reached", async () => {
    const b = await createBuilder();
    const app = await newApp(b);
    expect((await list(b, app.id)).json.hasReachedDataLimit).toBe(false);
    expect((await addText(b, app.id, "first")).status).toBe(200);
    const second = await addText(b, app.id, "second");
    expect(second.status).toBe(403);
    expect(second.json.error?.message).toBe(messages.upgradeReasonDataItems);
    expect((await list(b, app.id)).json.hasReachedDataLimit).toBe(true);
  });

  it("a parallel burst on lite still adds exactly one item", async () => {
    const b = await createBuilder();
    const app = await newApp(b);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => addText(b, app.id, `text ${i}`)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 403)).toHaveLength(7);
    const [row] = (
      await db().execute<{ n: number }>(
        sql`select count(*)::int as n from context_items where app_id = ${app.id}`,
      )
    ).rows;
    expect(Number(row!.n)).toBe(1);
  });
});

describe("rename and delete", () => {
  it("the owner renames and deletes (chunks go too); another builder gets 404 and changes nothing", async () => {
    const owner = await createBuilder({ plan: "explorer" });
    const stranger = await createBuilder({ plan: "explorer" });
    const app = await newApp(owner);
    const id = (await addText(owner, app.id, longText())).json.contextItemId!;
    await runDueJobs();

    const rename = (who: Builder, name: unknown) =>
      call<Json>(itemRoute.PATCH, {
        method: "PATCH",
        path: `/api/context/${id}`,
        params: { id },
        token: who.token,
        body: { name },
      });
    const remove = (who: Builder) =>
      call<Json>(itemRoute.DELETE, {
        method: "DELETE",
        path: `/api/context/${id}`,
        params: { id },
        token: who.token,
      });

    const foreign = await rename(stranger, "Mine now");
    expect(foreign.status).toBe(404);
    expect(foreign.json.error?.message).toBe(messages.contextItemNotFound);
    expect((await remove(stranger)).status).toBe(404);
    expect((await list(stranger, app.id)).status).toBe(404);
    expect((await addText(stranger, app.id, "sneaky")).status).toBe(404);
    expect((await itemOf(id))!.name).not.toBe("Mine now");

    expect((await rename(owner, "")).status).toBe(400);
    expect((await rename(owner, "Shop facts")).status).toBe(200);
    expect((await itemOf(id))!.name).toBe("Shop facts");

    expect((await remove(owner)).status).toBe(200);
    expect(await itemOf(id)).toBeUndefined();
    expect(await db().select().from(contextChunks).where(eq(contextChunks.itemId, id))).toEqual([]);
    expect((await remove(owner)).status).toBe(404);
    const missing = crypto.randomUUID();
    const none = await call<Json>(itemRoute.DELETE, {
      method: "DELETE",
      path: `/api/context/${missing}`,
      params: { id: missing },
      token: owner.token,
    });
    expect(none.status).toBe(404);
  });
});

describe("retrieval", () => {
  it("finds the relevant chunk first, only in synced items of the asked app", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const other = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const otherApp = await newApp(other);
    await addText(b, app.id, longText());
    await addText(b, app.id, "Unrelated note about the weather in spring.");
    await addText(other, otherApp.id, "The zanzibarcafe also appears in another app, which must never leak.");
    await runDueJobs();

    const found = await retrieveChunks(app.id, "zanzibarcafe Sundays");
    expect(found.length).toBeGreaterThan(0);
    expect(found[0]!.text).toContain("zanzibarcafe");
    for (const c of found) expect(c.text).not.toContain("another app");
    expect(await retrieveChunks(app.id, "")).toEqual([]);
    expect((await retrieveChunks(otherApp.id, "zanzibarcafe"))[0]!.text).toContain("another app");

    // An item that is not synced (e.g. being re-ingested) is left out.
    const [item] = await db().select().from(contextItems).where(eq(contextItems.appId, otherApp.id));
    await setContextItemStatus(item!.id, "running");
    expect(await retrieveChunks(otherApp.id, "zanzibarcafe")).toEqual([]);
  });
});
