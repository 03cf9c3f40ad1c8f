import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { describe, expect, it } from "vitest";
import { db, pool } from "@/db/client";
import { insertApp } from "@/db/queries/apps";
import { CHUNK_CANDIDATES_MAX, searchContextChunks, setContextItemStatus } from "@/db/queries/context";
import * as schema from "@/db/schema";
import { contextChunks, contextItems } from "@/db/schema";
import { retrieveChunks } from "@/lib/context/retrieve";
import { createBuilder } from "../support/factories";

// Full-text retrieval (lib/context/retrieve.ts): ranked by ts_rank among at most
// CHUNK_CANDIDATES_MAX matching chunks of the app's synced items. Chunks are written straight to
// the table (the trigger computes their tsvector, as for an ingested source).

type Builder = Awaited<ReturnType<typeof createBuilder>>;
const newApp = (b: Builder) => insertApp({ ownerAccountId: b.account.accountId, header: "Search app" });

async function item(appId: string, name: string, texts: string[], id?: string) {
  const [row] = await db()
    .insert(contextItems)
    .values({ id, appId, name, type: "txt", source: "local files", status: "synced", size: 1 })
    .returning();
  for (let start = 0; start < texts.length; start += 500) {
    await db()
      .insert(contextChunks)
      .values(
        texts
          .slice(start, start + 500)
          .map((text, j) => ({ itemId: row!.id, appId, position: start + j, text })),
      );
  }
  return row!;
}

const FILLER = "Orders ship within two days from our warehouse in Lyon.";
const ranksDescending = (ranks: number[]) => ranks.every((r, i) => i === 0 || ranks[i - 1]! >= r);

describe("retrieveChunks", () => {
  it("only the app's synced chunks compete for the candidates, however many others match", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const otherApp = await newApp(b);
    // Written first, so they come first in storage order: a re-ingestion under way (Syncing...)
    // and another app, each with more matching chunks than the cap.
    const many = Array.from(
      { length: CHUNK_CANDIDATES_MAX + 100 },
      (_, i) => `Draft ${i}: the teapot collection.`,
    );
    const draft = await item(app.id, "Draft.pdf", many);
    await setContextItemStatus(draft.id, "running");
    await item(otherApp.id, "Other.pdf", many);
    const doc = await item(app.id, "Catalogue.pdf", [
      "Page 1: our teapot.",
      FILLER,
      "Page 3: a teapot again.",
    ]);
    const found = await retrieveChunks(app.id, "teapot", 10);
    expect(found.map((c) => [c.itemId, c.position])).toEqual(
      expect.arrayContaining([
        [doc.id, 0],
        [doc.id, 2],
      ]),
    );
    expect(found).toHaveLength(2);
  });

  it("fewer matches than the cap: every one is ranked, the best first wherever it is stored", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const texts = [
      ...Array.from({ length: 40 }, (_, i) => `${FILLER} Chunk ${i} mentions a refund once.`),
      ...Array.from({ length: 40 }, () => FILLER),
      "Refund policy: a refund is due within 14 days; ask for your refund at the desk.",
    ];
    const doc = await item(app.id, "Policies.pdf", texts);
    const found = await retrieveChunks(app.id, "refund", 5);
    expect(found).toHaveLength(5);
    expect(found[0]).toMatchObject({ itemId: doc.id, itemName: "Policies.pdf", position: texts.length - 1 });
    for (const c of found) expect(c.text.toLowerCase()).toContain("refund");
    expect(ranksDescending(found.map((c) => c.score))).toBe(true);
    expect(found[0]!.score).toBeGreaterThan(found[1]!.score);
  });

  it("more matches than the cap: the limit holds, each chunk matches every word, best first", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const n = CHUNK_CANDIDATES_MAX + 150;
    // One refund mention in most chunks, three in every seventh: the candidates hold both.
    const texts = Array.from({ length: n }, (_, i) =>
      i % 7 === 3
        ? `Delivery note ${i}: refund, refund and refund for the late parcel.`
        : `Delivery note ${i}: refund for the late parcel${i % 2 ? "" : " and the damaged box"}.`,
    );
    await item(app.id, "Notes.txt", texts);
    const found = await retrieveChunks(app.id, "refund damaged", 10);
    expect(found).toHaveLength(10);
    for (const c of found) expect(c.text).toMatch(/refund.*damaged/);
    expect(ranksDescending(found.map((c) => c.score))).toBe(true);
    const best = await retrieveChunks(app.id, "refund", 10);
    expect(best).toHaveLength(10);
    // The three-mention chunks outrank the others among the candidates.
    for (const c of best) expect(c.text).toContain("refund, refund and refund");
  });

  it("English stop words are not searched: they neither exclude a chunk nor make every chunk match", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const texts = [
      "Helmet refund: a damaged helmet gets a full refund within 30 days.",
      ...Array.from({ length: 50 }, (_, i) => `Note ${i}: the order is in the box for you.`),
    ];
    const doc = await item(app.id, "Policies.pdf", texts);
    // "what", "is", "the", "for", "a" are in no index: the question finds the helmet page by its
    // words, although the page holds none of those.
    const found = await retrieveChunks(app.id, "What is the refund for a damaged helmet", 5);
    expect(found.map((c) => [c.itemId, c.position])).toEqual([[doc.id, 0]]);
    // The run's query (words or-ed): the fifty notes of stop words alone do not match it.
    const ored = await retrieveChunks(app.id, "the or in or helmet", 5);
    expect(ored.map((c) => c.position)).toEqual([0]);
    // Nothing but stop words: nothing to look for.
    expect(await retrieveChunks(app.id, "what is the", 5)).toEqual([]);
    // The stored vectors hold no stop word either.
    const [{ words }] = (
      await db().execute<{ words: string[] }>(
        sql`select tsvector_to_array(tsv) as words from context_chunks where item_id = ${doc.id} and position = 1`,
      )
    ).rows as [{ words: string[] }];
    expect(words.sort()).toEqual(["0", "box", "note", "order"]);
  });

  it("the scan stops once a partition completes the candidates: it reads no other partition's matches", async () => {
    // What keeps a common word cheap in a big app (migration 0018): a bitmap scan reads its
    // index's whole posting lists before it returns a row, so over one unpartitioned index (or
    // with the candidates behind a materialized CTE) every matching chunk would be found first.
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    // Two lists in each of the 8 partitions (item ids picked by the partition they hash to), each
    // with more matches than the cap.
    const perPartition = new Map<number, string[]>();
    while ([...perPartition.values()].flat().length < 16) {
      const id = crypto.randomUUID();
      const { rows } = await db().execute<{ r: number }>(
        sql`select r from generate_series(0, 7) r
            where satisfies_hash_partition('context_chunks'::regclass, 8, r, ${id}::uuid)`,
      );
      const ids = perPartition.get(rows[0]!.r) ?? [];
      if (ids.length < 2) perPartition.set(rows[0]!.r, [...ids, id]);
    }
    const perItem = CHUNK_CANDIDATES_MAX + 20;
    const texts = Array.from({ length: perItem }, (_, i) => `Invoice ${i}: teapot.`);
    for (const id of [...perPartition.values()].flat()) await item(app.id, `Invoices ${id}.pdf`, texts, id);
    // The statement searchContextChunks sends, caught by a logger, under EXPLAIN ANALYZE: the
    // index scans together found at most one partition's matches, not the 16 lists'.
    let statement: { sql: string; params: unknown[] } | undefined;
    const spy = drizzle(pool(), {
      schema,
      logger: {
        logQuery: (query, params) => {
          statement = { sql: query, params };
        },
      },
    });
    expect(await searchContextChunks(app.id, "teapot", 10, spy)).toHaveLength(10);
    // On so small a table the planner would rather read it whole, or walk the items and their
    // primary keys: as at scale (bench/context.ts), the plan is made the one over the GIN index.
    // (Checked: over an unpartitioned copy of the table the same plan's index scan finds 1,920.)
    const client = await pool().connect();
    let plan: string[];
    try {
      await client.query(
        "begin; set local enable_nestloop = off; set local enable_mergejoin = off; set local enable_seqscan = off",
      );
      const res = await client.query<{ "QUERY PLAN": string }>(
        `explain (analyze, costs off) ${statement!.sql}`,
        statement!.params,
      );
      plan = res.rows.map((r) => r["QUERY PLAN"]);
    } finally {
      await client.query("rollback");
      client.release();
    }
    const found = plan
      .filter((l) => l.includes("Bitmap Index Scan") && !l.includes("never executed"))
      .map((l) => Number(/rows=([\d.]+)/.exec(l)![1]));
    expect(found.length).toBeGreaterThan(0);
    expect(found.reduce((a, n) => a + n, 0)).toBeLessThanOrEqual(2 * perItem);
  });
});
