import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, pool } from "@/db/client";
import { insertApp } from "@/db/queries/apps";
import { insertContextItem, setContextItemStatus } from "@/db/queries/context";
import { listContextChunks, listContextRows, writeItemContent } from "@/db/queries/context-content";
import { retrieveChunks } from "@/lib/context/retrieve";
import { createBuilder } from "../support/factories";

// An item's content is written with COPY (db/queries/context-content.ts writeItemContent, db/copy-text.ts):
// every value comes back as it was given, the tsvectors are PostgreSQL's own (computed on a second
// connection for a large source, by the trigger for a small one), and a write that fails leaves
// the old content, the connections usable.

async function newItem() {
  const b = await createBuilder({ plan: "explorer" });
  const app = await insertApp({ ownerAccountId: b.account.accountId, header: "Copy app" });
  const item = await insertContextItem({
    appId: app.id,
    name: "list.csv",
    type: "csv",
    source: "local files",
    status: "running",
    size: 1,
    content: null,
  });
  return { app, item };
}

const count = async (table: "context_rows" | "context_chunks", itemId: string) =>
  Number(
    (
      await db().execute<{ n: string }>(
        sql`select count(*) as n from ${sql.identifier(table)} where item_id = ${itemId}`,
      )
    ).rows[0]!.n,
  );

// Chunks whose tsvector is not the one PostgreSQL computes from their text.
const wrongTsv = async (itemId: string) =>
  Number(
    (
      await db().execute<{ n: string }>(sql`
        select count(*) as n from context_chunks
        where item_id = ${itemId}
          and (tsv is distinct from to_tsvector('app_search', text) or tokens is distinct from tsvector_tokens(tsv))`)
    ).rows[0]!.n,
  );

const ODD = [
  "tab\there",
  "two\nlines",
  "windows\r\nline",
  "back\\slash and \\N and \\. and \\t",
  `quotes " ' and JSON-ish {"a": [1, 2]}`,
  "émoji 😀, 中文, \u2028 separator",
  "",
  "   ",
];

describe("writeItemContent (COPY)", () => {
  it("writes every character of rows and chunks as given (NUL aside), with PostgreSQL's tsvectors", async () => {
    const { item } = await newItem();
    const rows = ODD.map((v, i) => ({ [`col ${i}\t"x"`]: v, plain: `row ${i}` }));
    await writeItemContent(item, async (writer) => {
      await writer.addChunks(ODD);
      for (const row of rows) await writer.addRow(row);
      await writer.addChunks(["nul\0inside"]);
      await writer.addRow({ "nu\0l": "va\0lue" });
      await writer.flush();
      expect(writer.counts()).toEqual({ chunks: ODD.length + 1, rows: rows.length + 1 });
    });
    expect(await listContextChunks(item.id)).toEqual(
      [...ODD, "nulinside"].map((text, position) => ({ position, text })),
    );
    expect(await listContextRows(item.id)).toEqual(
      [...rows, { nul: "value" }].map((data, position) => ({ position, data })),
    );
    expect(await wrongTsv(item.id)).toBe(0);
  });

  it("a large source's tsvectors, computed beside the writing, belong each to its own chunk", async () => {
    const { app, item } = await newItem();
    // Over 2 MB of chunks, each with a word of its own: several batches go through the second
    // connection, and a tsvector written against the wrong chunk would be found.
    const chunks = Array.from({ length: 2200 }, (_, i) => `marker${i}x ${"lorem ipsum dolor ".repeat(55)}`);
    await writeItemContent(item, async (writer, tx) => {
      for (let i = 0; i < chunks.length; i += 7) await writer.addChunks(chunks.slice(i, i + 7));
      await writer.flush();
      await setContextItemStatus(item.id, "synced", {}, tx);
    });
    expect(await count("context_chunks", item.id)).toBe(chunks.length);
    expect(await wrongTsv(item.id)).toBe(0);
    for (const i of [0, 1234, 2199]) {
      const found = await retrieveChunks(app.id, `marker${i}x`, 5);
      expect(found.map((c) => c.position)).toEqual([i]);
    }
  });

  it("a chunk written without its tsvector gets it from the trigger, and a new text a new one", async () => {
    const { item } = await newItem();
    await db().execute(sql`
      insert into context_chunks (item_id, app_id, position, text)
      values (${item.id}, ${item.appId}, 0, 'Green tea from Japan')`);
    await db().execute(sql`update context_chunks set text = 'Black coffee' where item_id = ${item.id}`);
    const { rows } = await db().execute<{ tsv: string }>(
      sql`select tsv::text as tsv from context_chunks where item_id = ${item.id}`,
    );
    expect(rows[0]!.tsv).toBe("'black':1 'coffee':2");
    expect(await wrongTsv(item.id)).toBe(0);
  });

  it("a write that fails mid-way leaves the old content whole, and the pool's connections usable", async () => {
    const { item } = await newItem();
    await writeItemContent(item, async (writer) => {
      await writer.addChunks(["old chunk"]);
      await writer.addRow({ name: "old row" });
    });
    // Failing in the caller while several batches (3 MB of rows, 2 MB of chunks) are under way.
    const failing = writeItemContent(item, async (writer) => {
      for (let i = 0; i < 20_000; i++) {
        await writer.addRow({ name: `new row ${i}`, note: "n".repeat(150) });
        if (i % 10 === 0) await writer.addChunks([`new chunk ${i} ${"c".repeat(990)}`]);
      }
      throw new Error("the source broke");
    });
    await expect(failing).rejects.toThrow("the source broke");
    expect(await listContextChunks(item.id)).toEqual([{ position: 0, text: "old chunk" }]);
    expect(await listContextRows(item.id)).toEqual([{ position: 0, data: { name: "old row" } }]);

    // Failing in the database (a COPY the server refuses, in the middle of the chunks): the
    // error reaches the caller, and the old content stays.
    const fn = `refuse_poison_${item.id.replaceAll("-", "")}`;
    await db().execute(
      sql.raw(`create function ${fn}() returns trigger language plpgsql as $$ begin
        if new.item_id = '${item.id}' and new.text = 'poison' then raise exception 'poisoned chunk'; end if;
        return new; end $$;
        create trigger ${fn} before insert on context_chunks for each row execute function ${fn}();`),
    );
    try {
      await expect(
        writeItemContent(item, async (writer) => {
          for (let i = 0; i < 3000; i++) {
            await writer.addChunks([i === 1500 ? "poison" : `chunk ${i} ${"c".repeat(990)}`]);
            await writer.addRow({ name: `row ${i}` });
          }
        }),
      ).rejects.toThrow("poisoned chunk");
    } finally {
      await db().execute(sql.raw(`drop trigger ${fn} on context_chunks; drop function ${fn}();`));
    }
    expect(await listContextChunks(item.id)).toEqual([{ position: 0, text: "old chunk" }]);
    expect(await listContextRows(item.id)).toEqual([{ position: 0, data: { name: "old row" } }]);

    // Every connection went back to the pool (or was closed), and the next write works.
    const p = pool();
    expect(p.totalCount - p.idleCount).toBe(0);
    await writeItemContent(item, async (writer) => {
      await writer.addRow({ name: "newest" });
    });
    expect(await listContextRows(item.id)).toEqual([{ position: 0, data: { name: "newest" } }]);
  });

  it("two writes of one item at once never double it: the second replaces the first", async () => {
    const { item } = await newItem();
    const write = (label: string) =>
      writeItemContent(item, async (writer) => {
        for (let i = 0; i < 3000; i++) await writer.addRow({ label, i: String(i) });
        await writer.addChunks([`${label} chunk`]);
      });
    await Promise.all([write("a"), write("b")]);
    expect(await count("context_rows", item.id)).toBe(3000);
    expect(await count("context_chunks", item.id)).toBe(1);
    const labels = new Set((await listContextRows(item.id)).map((r) => r.data.label));
    expect(labels.size).toBe(1);
  });
});
