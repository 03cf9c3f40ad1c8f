import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import * as ingestFileRoute from "@/app/api/context/ingest/file/route";
import { db } from "@/db/client";
import { insertApp } from "@/db/queries/apps";
import { listContextChunks } from "@/db/queries/context-content";
import { contextItems } from "@/db/schema";
import { chunkLines } from "@/lib/context/chunk-text";
import { runContextIngestJob } from "@/lib/jobs/context-ingest";
import { runDueJobs } from "@/lib/jobs/worker";
import { createBuilder } from "../support/factories";
import { send } from "../support/uploads-client";

// A CSV item list of 100k rows (about 11 MB) is ingested as it is parsed, a batch at a time in
// one transaction: every row kept, the chunks those of the rows' lines, and a reader never sees
// half of it. Memory is the bench's to measure (npm run bench), not a test's.
const STORAGE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "context-csv-stream-test-"));
process.env.STORAGE_DIR = STORAGE_DIR;
afterAll(() => fs.rmSync(STORAGE_DIR, { recursive: true, force: true }));

const ROWS = 100_000;
const HEADER = "sku,name,category,price,description";
const row = (i: number) =>
  `SKU-${i},Product ${i},${["Tea", "Coffee", "Cocoa"][i % 3]},${(i % 97) + 0.5},"A ${i % 7 === 0 ? "rare, " : ""}item with a description long enough to make a row of about 110 bytes"`;
const line = (i: number) =>
  `sku: SKU-${i}; name: Product ${i}; category: ${["Tea", "Coffee", "Cocoa"][i % 3]}; price: ${(i % 97) + 0.5}; description: A ${i % 7 === 0 ? "rare, " : ""}item with a description long enough to make a row of about 110 bytes`;

const count = async (table: "context_rows" | "context_chunks", itemId: string) =>
  Number(
    (
      await db().execute<{ n: string }>(
        sql`select count(*) as n from ${sql.identifier(table)} where item_id = ${itemId}`,
      )
    ).rows[0]!.n,
  );

describe("a 100k-row CSV", () => {
  it("is streamed into its rows and chunks; running it again replaces them, readers see old or new", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await insertApp({ ownerAccountId: b.account.accountId, header: "Big list" });
    const csv = `${HEADER}\n${Array.from({ length: ROWS }, (_, i) => row(i)).join("\n")}\n`;
    expect(Buffer.byteLength(csv)).toBeGreaterThan(10 * 1024 * 1024);
    const res = await send(ingestFileRoute.POST, {
      method: "POST",
      path: `/api/context/ingest/file?appId=${app.id}&name=products.csv`,
      params: {},
      token: b.token,
      body: new TextEncoder().encode(csv),
    });
    expect(res.status).toBe(200);
    const id = (res.json as unknown as { contextItemId: string }).contextItemId;
    await runDueJobs();
    expect((await db().select().from(contextItems).where(eq(contextItems.id, id)))[0]!.status).toBe("synced");

    const expected = chunkLines(Array.from({ length: ROWS }, (_, i) => line(i)));
    expect(await count("context_rows", id)).toBe(ROWS);
    expect(await count("context_chunks", id)).toBe(expected.length);
    const chunks = await listContextChunks(id);
    expect(chunks.map((c) => c.position)).toEqual(expected.map((_, i) => i));
    // Every chunk as the whole text would be cut: no row lost, doubled or reordered across batches.
    expect(chunks.findIndex((c, i) => c.text !== expected[i])).toBe(-1);
    const rows = await db().execute<{ position: number; data: Record<string, string> }>(
      sql`select position, data from context_rows where item_id = ${id} and position in (0, 7, 99999) order by position`,
    );
    expect(rows.rows.map((r) => r.data)).toEqual([
      {
        sku: "SKU-0",
        name: "Product 0",
        category: "Tea",
        price: "0.5",
        description: "A rare, item with a description long enough to make a row of about 110 bytes",
      },
      {
        sku: "SKU-7",
        name: "Product 7",
        category: "Coffee",
        price: "7.5",
        description: "A rare, item with a description long enough to make a row of about 110 bytes",
      },
      {
        sku: "SKU-99999",
        name: "Product 99999",
        category: "Tea",
        price: "89.5",
        description: "A item with a description long enough to make a row of about 110 bytes",
      },
    ]);

    // Again (a retry, or the same job twice): replaced, not doubled, and a reader on another
    // connection sees the whole list the whole time.
    const seen = new Set<number>();
    let done = false;
    const again = runContextIngestJob({ itemId: id }, { finalAttempt: false }).finally(() => {
      done = true;
    });
    while (!done) {
      seen.add(await count("context_rows", id));
      await new Promise((r) => setTimeout(r, 50));
    }
    await again;
    expect([...seen]).toEqual([ROWS]);
    expect(await count("context_rows", id)).toBe(ROWS);
    expect(await count("context_chunks", id)).toBe(expected.length);
  }, 180_000);
});
