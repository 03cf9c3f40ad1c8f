import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import * as ingestFileRoute from "@/app/api/context/ingest/file/route";
import * as ingestTextRoute from "@/app/api/context/ingest/text/route";
import * as replaceRoute from "@/app/api/tools/[appId]/replaceDataItem/route";
import { db } from "@/db/client";
import { insertApp } from "@/db/queries/apps";
import { listContextChunks, listContextRows } from "@/db/queries/context-content";
import { contextItems } from "@/db/schema";
import { runDueJobs } from "@/lib/jobs/worker";
import { messages } from "@/lib/messages";
import { createBuilder } from "../support/factories";
import { call } from "../support/http";
import { send } from "../support/uploads-client";

// Replacing a data source (POST /api/tools/{appId}/replaceDataItem): the new item is added with
// `replacing=<old id>` (so a lite app at its one item may add it), then replaceDataItem deletes the
// old one with its chunks, rows and stored file. And the ingest routes' own not-found message.
const STORAGE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "context-replace-test-"));
process.env.STORAGE_DIR = STORAGE_DIR;
afterAll(() => fs.rmSync(STORAGE_DIR, { recursive: true, force: true }));

type Builder = Awaited<ReturnType<typeof createBuilder>>;
type Json = { contextItemId?: string; ok?: boolean; error?: { code: string; message: string } };

const newApp = (b: Builder) => insertApp({ ownerAccountId: b.account.accountId, header: "Replace app" });
const addText = (b: Builder, appId: string, context: string, replacing?: string) =>
  call<Json>(ingestTextRoute.POST, {
    path: `/api/context/ingest/text?appId=${appId}${replacing ? `&replacing=${replacing}` : ""}`,
    token: b.token,
    body: { context },
  });
const addCsv = (b: Builder, appId: string, csv: string, replacing?: string) =>
  send(ingestFileRoute.POST, {
    method: "POST",
    path: `/api/context/ingest/file?appId=${appId}&name=list.csv${replacing ? `&replacing=${replacing}` : ""}`,
    params: {},
    token: b.token,
    body: new TextEncoder().encode(csv),
  });
const replace = (b: Builder, appId: string, body: unknown) =>
  call<Json>(replaceRoute.POST, {
    path: `/api/tools/${appId}/replaceDataItem`,
    params: { appId },
    token: b.token,
    body,
  });
const idOf = (res: { json: unknown }) => (res.json as { contextItemId: string }).contextItemId;
const itemsOf = async (appId: string) =>
  (await db().select().from(contextItems).where(eq(contextItems.appId, appId))).map((i) => i.id).sort();
const storedFiles = (b: Builder, appId: string) => {
  const dir = path.join(STORAGE_DIR, "accounts", b.account.accountId, "apps", appId, "context");
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => !f.startsWith(".")) : [];
};

describe("replacing a data source", () => {
  it("lite: the new CSV is added with replacing=, then the old one goes with its rows, chunks and file", async () => {
    const b = await createBuilder();
    const app = await newApp(b);
    const old = await addCsv(b, app.id, "name,price\nTea,3\n");
    const oldId = idOf(old);
    await runDueJobs();
    expect(await listContextRows(oldId)).toHaveLength(1);

    // Without replacing=, lite's one item is taken.
    const refused = await addCsv(b, app.id, "name,price\nCoffee,4\n");
    expect(refused.status).toBe(403);
    expect(refused.json?.error.message).toBe(messages.upgradeReasonDataItems);

    const added = await addCsv(b, app.id, "name,price\nCoffee,4\n", oldId);
    expect(added.status).toBe(200);
    const newId = idOf(added);
    await runDueJobs();
    expect(storedFiles(b, app.id).sort()).toEqual([`${newId}.csv`, `${oldId}.csv`].sort());

    const res = await replace(b, app.id, { oldItemId: oldId, newItemId: newId });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true });
    expect(await itemsOf(app.id)).toEqual([newId]);
    expect(await listContextRows(oldId)).toEqual([]);
    expect(await listContextChunks(oldId)).toEqual([]);
    expect(storedFiles(b, app.id)).toEqual([`${newId}.csv`]);
    expect((await listContextRows(newId)).map((r) => r.data)).toEqual([{ name: "Coffee", price: "4" }]);
  });

  it("replacing= works for text too, and counts only the one replaced item", async () => {
    const b = await createBuilder();
    const app = await newApp(b);
    const oldId = (await addText(b, app.id, "old facts")).json.contextItemId!;
    const second = await addText(b, app.id, "new facts", oldId);
    expect(second.status).toBe(200);
    // The replaced item is not counted, the one just added is: a third is over lite's limit.
    const third = await addText(b, app.id, "more facts", oldId);
    expect(third.status).toBe(403);
    expect(third.json.error?.message).toBe(messages.upgradeReasonDataItems);
  });

  it("replacing= an item of another app (or none) is 404 'Item not found', nothing added or stored", async () => {
    const b = await createBuilder();
    const other = await createBuilder();
    const app = await newApp(b);
    const otherApp = await newApp(other);
    const foreignId = (await addText(other, otherApp.id, "theirs")).json.contextItemId!;
    for (const replacing of [foreignId, crypto.randomUUID()]) {
      const text = await addText(b, app.id, "mine", replacing);
      expect(text.status).toBe(404);
      expect(text.json.error?.message).toBe(messages.contextItemNotFound);
      const file = await addCsv(b, app.id, "a,b\n1,2\n", replacing);
      expect(file.status).toBe(404);
      expect(file.json?.error.message).toBe(messages.contextItemNotFound);
    }
    expect(await itemsOf(app.id)).toEqual([]);
    expect(storedFiles(b, app.id)).toEqual([]);
    const malformed = await addText(b, app.id, "mine", "not-an-id");
    expect(malformed.status).toBe(400);
  });

  it("both items must be the app's: another app's item is 404 and is left alone", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const other = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const otherApp = await newApp(other);
    const mine = (await addText(b, app.id, "mine")).json.contextItemId!;
    const mine2 = (await addText(b, app.id, "mine too")).json.contextItemId!;
    const theirs = (await addText(other, otherApp.id, "theirs")).json.contextItemId!;

    for (const body of [
      { oldItemId: theirs, newItemId: mine },
      { oldItemId: mine, newItemId: theirs },
      { oldItemId: mine, newItemId: crypto.randomUUID() },
    ]) {
      const res = await replace(b, app.id, body);
      expect(res.status).toBe(404);
      expect(res.json.error).toEqual({ code: "NOT_FOUND", message: messages.contextItemNotFound });
    }
    expect(await itemsOf(otherApp.id)).toEqual([theirs]);
    expect(await itemsOf(app.id)).toEqual([mine, mine2].sort());

    // The other builder cannot replace in this app: the app itself is not found for them.
    const stranger = await replace(other, app.id, { oldItemId: mine, newItemId: mine2 });
    expect(stranger.status).toBe(404);
    expect(stranger.json.error?.message).toBe(messages.appNotFound);

    const same = await replace(b, app.id, { oldItemId: mine, newItemId: mine });
    expect(same.status).toBe(400);
    const missing = await replace(b, app.id, { oldItemId: mine });
    expect(missing.status).toBe(400);
    expect(await itemsOf(app.id)).toEqual([mine, mine2].sort());

    expect((await replace(b, app.id, { oldItemId: mine, newItemId: mine2 })).status).toBe(200);
    expect(await itemsOf(app.id)).toEqual([mine2]);
    // Already gone: a second call finds no such item.
    expect((await replace(b, app.id, { oldItemId: mine, newItemId: mine2 })).status).toBe(404);
  });
});

describe("'Please save your app first before adding context'", () => {
  it("the ingest routes answer it (404) for an app that does not exist or is not the caller's", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const other = await createBuilder({ plan: "explorer" });
    const otherApp = await newApp(other);
    const unsaved = crypto.randomUUID();
    const expected = { code: "NOT_FOUND", message: messages.contextSaveAppFirst };
    for (const appId of [unsaved, otherApp.id]) {
      const text = await addText(b, appId, "facts");
      expect(text.status).toBe(404);
      expect(text.json.error).toEqual(expected);
      const file = await addCsv(b, appId, "a,b\n1,2\n");
      expect(file.status).toBe(404);
      expect(file.json?.error).toEqual(expected);
    }
    expect(await itemsOf(otherApp.id)).toEqual([]);
  });
});
