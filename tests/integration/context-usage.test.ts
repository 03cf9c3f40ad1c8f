import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import * as ingestFileRoute from "@/app/api/context/ingest/file/route";
import * as ingestTextRoute from "@/app/api/context/ingest/text/route";
import { db } from "@/db/client";
import { insertApp } from "@/db/queries/apps";
import { listContextChunks } from "@/db/queries/context-content";
import { monthlyContextUsage, reserveMonthlyContextUsage } from "@/db/queries/context-usage";
import * as schema from "@/db/schema";
import { contextItems } from "@/db/schema";
import { runContextIngestJob } from "@/lib/jobs/context-ingest";
import { runDueJobs } from "@/lib/jobs/worker";
import { messages } from "@/lib/messages";
import { getPlanCapabilities } from "@/lib/plans/capabilities";
import { createBuilder } from "../support/factories";
import { call } from "../support/http";
import { send } from "../support/uploads-client";

// The monthly data processing limit ('Monthly data processing limit has been reached'):
// per account and calendar month (UTC), reserved atomically by the job before the work, refused
// up front by the ingest routes once used up.
const STORAGE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "context-usage-test-"));
process.env.STORAGE_DIR = STORAGE_DIR;
afterAll(() => fs.rmSync(STORAGE_DIR, { recursive: true, force: true }));

type Builder = Awaited<ReturnType<typeof createBuilder>>;
type Json = { contextItemId?: string; error?: { code: string; message: string } };

const newApp = (b: Builder) => insertApp({ ownerAccountId: b.account.accountId, header: "Usage app" });
const addText = (b: Builder, appId: string, context: string) =>
  call<Json>(ingestTextRoute.POST, {
    path: `/api/context/ingest/text?appId=${appId}`,
    token: b.token,
    body: { context },
  });
const addCsv = (b: Builder, appId: string, csv: string) =>
  send(ingestFileRoute.POST, {
    method: "POST",
    path: `/api/context/ingest/file?appId=${appId}&name=list.csv`,
    params: {},
    token: b.token,
    body: new TextEncoder().encode(csv),
  });
const itemOf = async (id: string) =>
  (await db().select().from(contextItems).where(eq(contextItems.id, id)))[0]!;
const limitOf = (plan: string) => getPlanCapabilities(plan).monthlyProcessingBytes;

/** Sets what the account has used this month. */
async function setUsage(b: Builder, bytes: number) {
  await db().execute(sql`
    insert into context_usage (account_id, month, bytes)
    values (${b.account.accountId}, (date_trunc('month', now() at time zone 'utc'))::date, ${bytes})
    on conflict (account_id, month) do update set bytes = excluded.bytes`);
}

/** Items saved straight away, as the ingest routes save them, for the jobs to run on. */
async function pendingTexts(appId: string, texts: string[]) {
  return db()
    .insert(contextItems)
    .values(
      texts.map((content) => ({
        appId,
        name: content.slice(0, 10),
        type: "txt" as const,
        source: "local files" as const,
        status: "pending" as const,
        size: Array.from(content).length,
        content,
      })),
    )
    .returning();
}

describe("the monthly processing limit", () => {
  it("a job charges the item's size; past the limit the item ends 'Usage limit reached' and is not retried", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const ok = await addText(b, app.id, "twelve chars");
    expect(ok.status).toBe(200);
    await runDueJobs();
    expect((await itemOf(ok.json.contextItemId!)).status).toBe("synced");
    expect(await monthlyContextUsage(b.account.accountId)).toBe(12);

    // Saved while there was room; by the time the job runs, another source took it.
    const late = await addText(b, app.id, "a text of 20 letters");
    await setUsage(b, limitOf("explorer") - 10);
    const ran = await runDueJobs();
    expect(ran).toBe(1);
    expect(await itemOf(late.json.contextItemId!)).toMatchObject({
      status: "usage_limit_reached",
      error: "Monthly data processing limit has been reached",
    });
    expect(await listContextChunks(late.json.contextItemId!)).toEqual([]);
    expect(await monthlyContextUsage(b.account.accountId)).toBe(limitOf("explorer") - 10);
    // Completed, not failed: nothing is left to retry.
    expect(await runDueJobs()).toBe(0);
    const states = await db().execute<{ state: string }>(
      sql`select state from pgboss.job where data->>'itemId' = ${late.json.contextItemId!}`,
    );
    expect(states.rows.map((r) => r.state)).toEqual(["completed"]);
  });

  it("the ingest routes refuse with 400 once the month is used up, or when the source would pass it", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const limit = limitOf("explorer");
    const expected = { code: "context/monthly-limit", message: messages.contextMonthlyLimit };

    await setUsage(b, limit - 5);
    const tooLong = await addText(b, app.id, "more than five");
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.error).toEqual(expected);
    const csv = await addCsv(b, app.id, "a,b\n1,2\n");
    expect(csv.status).toBe(400);
    expect(csv.json?.error).toEqual(expected);
    expect((await addText(b, app.id, "four")).status).toBe(200);

    await setUsage(b, limit);
    const text = await addText(b, app.id, "x");
    expect(text.status).toBe(400);
    expect(text.json.error).toEqual(expected);
    expect((await db().select().from(contextItems).where(eq(contextItems.appId, app.id))).length).toBe(1);
    expect(fs.readdirSync(STORAGE_DIR).length).toBe(0);
  });

  it("jobs running in parallel never charge past the limit together", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const limit = limitOf("explorer");
    // Room for 10 texts of 50 characters, and half of another.
    await setUsage(b, limit - 10 * 50 - 25);
    const items = await pendingTexts(
      app.id,
      Array.from({ length: 20 }, (_, i) => `${String(i).padStart(2, "0")} ${"x".repeat(47)}`),
    );
    await Promise.all(items.map((i) => runContextIngestJob({ itemId: i.id }, { finalAttempt: false })));
    const statuses = await Promise.all(items.map(async (i) => (await itemOf(i.id)).status));
    expect(statuses.filter((s) => s === "synced")).toHaveLength(10);
    expect(statuses.filter((s) => s === "usage_limit_reached")).toHaveLength(10);
    expect(await monthlyContextUsage(b.account.accountId)).toBe(limit - 25);
  });

  it("the reservation itself is atomic: 40 at once over separate connections, exactly the room is given", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
    try {
      const own = drizzle(pool, { schema });
      const answers = await Promise.all(
        Array.from({ length: 40 }, () => reserveMonthlyContextUsage(b.account.accountId, 100, 1050, own)),
      );
      expect(answers.filter(Boolean)).toHaveLength(10);
      expect(await monthlyContextUsage(b.account.accountId)).toBe(1000);
      // Never more than the limit, even for the first reservation of a month.
      const fresh = await createBuilder({ plan: "explorer" });
      expect(await reserveMonthlyContextUsage(fresh.account.accountId, 2000, 1050, own)).toBe(false);
      expect(await monthlyContextUsage(fresh.account.accountId)).toBe(0);
    } finally {
      await pool.end();
    }
  });

  it("a job retried after a failure is charged once; a new job for the item (a sync) is charged again", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const [item] = await pendingTexts(app.id, ["forty characters of text for the charge"]);
    const size = item!.size;
    const jobId = crypto.randomUUID();
    // The first attempt fails after the charge: the database refuses this item's chunks.
    const fn = `refuse_chunks_${item!.id.replaceAll("-", "")}`;
    await db().execute(
      sql.raw(`create function ${fn}() returns trigger language plpgsql as $$ begin
        if new.item_id = '${item!.id}' then raise exception 'disk full'; end if; return new; end $$;
        create trigger ${fn} before insert on context_chunks for each row execute function ${fn}();`),
    );
    try {
      await expect(
        runContextIngestJob({ itemId: item!.id }, { finalAttempt: false, jobId }),
      ).rejects.toThrow();
    } finally {
      await db().execute(sql.raw(`drop trigger ${fn} on context_chunks; drop function ${fn}();`));
    }
    expect((await itemOf(item!.id)).status).toBe("pending");
    expect(await monthlyContextUsage(b.account.accountId)).toBe(size);

    await runContextIngestJob({ itemId: item!.id }, { finalAttempt: false, jobId });
    expect((await itemOf(item!.id)).status).toBe("synced");
    expect(await monthlyContextUsage(b.account.accountId)).toBe(size);

    await runContextIngestJob({ itemId: item!.id }, { finalAttempt: false, jobId: crypto.randomUUID() });
    expect(await monthlyContextUsage(b.account.accountId)).toBe(2 * size);
  });

  it("a file is charged its bytes, and the limit is the owner's across all their apps", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app1 = await newApp(b);
    const app2 = await newApp(b);
    const csv = "name,price\nTea,3\n";
    expect((await addCsv(b, app1.id, csv)).status).toBe(200);
    expect((await addText(b, app2.id, "abc")).status).toBe(200);
    await runDueJobs();
    expect(await monthlyContextUsage(b.account.accountId)).toBe(Buffer.byteLength(csv) + 3);
  });
});
