import { drizzle } from "drizzle-orm/node-postgres";
import type pg from "pg";
import { pool } from "@/db/client";
import * as schema from "@/db/schema";
import { retrieveChunks } from "@/lib/context/retrieve";
import { CONTENT_WORDS, FUNCTION_WORDS, randomFrom, tailWords } from "./context-fixtures";

// Retrieval over a big app: 1,000,000 chunks of one app's data sources written straight into
// context_chunks by SQL (an ingestion of that much would take the run's whole budget), then the
// queries of a tool's users through lib/context/retrieve.ts, as a run will call it.
//
// The text: sentences made of English function words (the, of, for...: most of every text, and
// dropped from the index as stop words by the app_search configuration, migration 0017), a business vocabulary (order, refund, headphones...) and a long
// tail of rare words (names, models). So a common word matches a large share of the chunks and
// ranking has work to do, as in a real corpus. A chunk is three sentences, about 220 characters:
// shorter than the 1000 of a real one, to keep the fill near half a minute on 2 cores. Real chunks
// hold more words, so more of them match a common word and each costs more to rank: the figures
// are a floor.

const TAIL_SIZE = 20_000;
const SENTENCES = 100_000;
const SENTENCES_PER_CHUNK = 3;
const ITEMS_PER_APP = 200;

export type CorpusApp = { appId: string; chunks: number };

/** The vocabulary table and the sentences the chunks are built from, reproducible (setseed). */
async function createSentences(client: pg.PoolClient) {
  const kinds = [[...FUNCTION_WORDS], [...CONTENT_WORDS], tailWords(TAIL_SIZE)];
  await client.query("DROP TABLE IF EXISTS bench_vocab, bench_sentences");
  await client.query("CREATE UNLOGGED TABLE bench_vocab (kind int, i int, w text, PRIMARY KEY (kind, i))");
  for (const [kind, words] of kinds.entries()) {
    await client.query(
      "INSERT INTO bench_vocab SELECT $1, i - 1, w FROM unnest($2::text[]) WITH ORDINALITY AS t(w, i)",
      [kind, words],
    );
  }
  await client.query("SELECT setseed(0.42)");
  // Per word: 40% a function word (skewed: 'the' most), 45% a business word, 15% a tail word
  // (skewed too); 8 to 16 words a sentence.
  await client.query(
    `CREATE UNLOGGED TABLE bench_sentences AS
     SELECT s, string_agg(v.w, ' ' ORDER BY k) AS txt
     FROM (
       SELECT s, k, CASE WHEN r < 0.40 THEN 0 WHEN r < 0.85 THEN 1 ELSE 2 END AS kind, u
       FROM (SELECT s, k, random() AS r, random() AS u
             FROM generate_series(1, ${SENTENCES}) s
             CROSS JOIN LATERAL generate_series(1, 8 + s % 9) k) a
     ) b
     JOIN bench_vocab v ON v.kind = b.kind AND v.i = CASE b.kind
       WHEN 0 THEN floor($1 * b.u ^ 2)::int
       WHEN 1 THEN floor($2 * b.u)::int
       ELSE floor($3 * b.u ^ 2)::int END
     GROUP BY s`,
    kinds.map((k) => k.length),
  );
  await client.query("ALTER TABLE bench_sentences ADD PRIMARY KEY (s)");
}

/**
 * Chunks [from, to) of the app: three sentences each, picked by multiplicative hashing of the
 * number. With `withTsv`, the chunk's tsvector is computed in the same statement, as the product
 * computes it (to_tsvector('app_search', text)), which the schema allows when tsv is not a generated
 * column (the trigger then leaves it as it is). (A concatenation of the sentences' tsvectors would
 * be quicker but not the same: a stop word ending a sentence takes a position the || shift skips.)
 */
function insertChunksSql(appId: string, from: number, to: number, withTsv: boolean, itemIds?: string[]) {
  const picks = [7919, 104_729, 1_299_709, 15_485_863].slice(0, SENTENCES_PER_CHUNK);
  const joins = picks
    .map((p, j) => `JOIN bench_sentences s${j} ON s${j}.s = 1 + (g * ${p} + ${j * 7}) % ${SENTENCES}`)
    .join("\n");
  const text = picks.map((_, j) => `s${j}.txt`).join(" || ' ' || ");
  return `INSERT INTO context_chunks (item_id, app_id, position, text${withTsv ? ", tsv" : ""})
    SELECT items.ids[1 + g % array_length(items.ids, 1)], '${appId}', (g - ${itemIds ? from : 0}) / array_length(items.ids, 1),
      ${text}${withTsv ? `, to_tsvector('app_search', ${text})` : ""}
    FROM generate_series(${from}::bigint, ${to - 1}) g
    CROSS JOIN (SELECT array_agg(id ORDER BY id) AS ids FROM context_items
                WHERE app_id = '${appId}' ${itemIds ? `AND id = ANY('{${itemIds.join(",")}}'::uuid[])` : ""}) items
    ${joins}`;
}

/**
 * Fills the apps' chunks. The secondary indexes of context_chunks are dropped first and built
 * again after, from their own definitions (a bulk load's usual order: building a GIN index once
 * is far quicker than growing it row by row); two connections insert halves at once (2 cores).
 */
export async function fillCorpus(apps: CorpusApp[], log: (line: string) => void): Promise<void> {
  const [a, b] = [await pool().connect(), await pool().connect()];
  try {
    const started = performance.now();
    await createSentences(a);
    for (const app of apps) {
      await a.query(
        `INSERT INTO context_items (app_id, name, type, source, status, size, last_synced_at)
         SELECT $1, 'Document ' || i || '.pdf', 'pdf', 'local files', 'synced', 0, now()
         FROM generate_series(1, ${ITEMS_PER_APP}) i`,
        [app.appId],
      );
    }
    const { rows: indexes } = await a.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes
       WHERE schemaname = current_schema() AND tablename = 'context_chunks'
         AND indexname <> 'context_chunks_pkey'`,
    );
    if (!indexes.some((i) => /USING gin \(app_id, tsv\)/.test(i.indexdef))) {
      throw new Error(
        "context_chunks has no GIN index on (app_id, tsv): the migrations changed, update the bench",
      );
    }
    const withTsv = await tsvWritable(a);
    for (const i of indexes) await a.query(`DROP INDEX ${i.indexname}`);
    for (const app of apps) {
      const half = Math.floor(app.chunks / 2);
      await Promise.all([
        a.query(insertChunksSql(app.appId, 0, half, withTsv)),
        b.query(insertChunksSql(app.appId, half, app.chunks, withTsv)),
      ]);
    }
    await writeStatistics(
      a,
      "app_id",
      apps.map((x) => x.appId),
    );
    const inserted = performance.now();
    // A partitioned table's index reads "ON ONLY context_chunks" (the parent alone): built again
    // without ONLY, it is built on every partition too.
    for (const i of indexes) await a.query(i.indexdef.replace(" ON ONLY ", " ON "));
    const indexed = performance.now();
    // Every chunk searchable, and its tsvector the one the product computes from its text (a
    // sample of 2,000 spread over the apps' rows).
    const { rows: check } = await a.query<{ missing: string; different: string }>(
      `SELECT (SELECT count(*) FROM context_chunks WHERE app_id = ANY($1) AND (tsv IS NULL OR tokens IS NULL)) AS missing,
              (SELECT count(*) FROM (SELECT text, tsv FROM context_chunks TABLESAMPLE SYSTEM (1)
                                     WHERE app_id = ANY($1) LIMIT 2000) x
               WHERE tsv IS DISTINCT FROM to_tsvector('app_search', text)) AS different`,
      [apps.map((x) => x.appId)],
    );
    if (Number(check[0]!.missing) > 0 || Number(check[0]!.different) > 0) {
      throw new Error(
        `chunks without their tsvector: ${check[0]!.missing} missing, ${check[0]!.different} different`,
      );
    }
    await a.query("VACUUM ANALYZE context_chunks, context_items, context_item_terms");
    await a.query(DROP_SENTENCES);
    const { rows } = await a.query<{ size: string; avg: string }>(
      `SELECT (SELECT pg_size_pretty(sum(pg_total_relation_size(relid))) FROM pg_partition_tree('context_chunks')) AS size,
              round(avg(length(text))) AS avg FROM context_chunks`,
    );
    const total = apps.reduce((s, x) => s + x.chunks, 0);
    log(
      `${total.toLocaleString("en")} chunks written in ${sec(inserted - started)}, ` +
        `indexes (${indexes.map((i) => i.indexname).join(", ")}) built in ${sec(indexed - inserted)}, ` +
        `VACUUM ANALYZE ${sec(performance.now() - indexed)}; context_chunks ${rows[0]!.size}, ` +
        `${rows[0]!.avg} characters a chunk`,
    );
  } finally {
    a.release();
    b.release();
  }
}

/** Whether a writer may bring the chunk's tsvector (not a generated column). */
async function tsvWritable(client: pg.PoolClient): Promise<boolean> {
  const { rows } = await client.query<{ is_generated: string }>(
    `SELECT is_generated FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = 'context_chunks' AND column_name = 'tsv'`,
  );
  return rows[0]?.is_generated === "NEVER";
}

/** BM25's statistics of the chunks of these apps or items, as an ingestion writes them (db/queries/context-content.ts writeItemStatistics). */
async function writeStatistics(client: pg.PoolClient, of: "app_id" | "item_id", ids: string[]) {
  await client.query(
    `INSERT INTO context_item_terms (item_id, app_id, term, chunks)
     SELECT c.item_id, c.app_id, t, count(*)::integer
     FROM context_chunks c CROSS JOIN unnest(tsvector_to_array(c.tsv)) t
     WHERE c.${of} = ANY($1) GROUP BY c.item_id, c.app_id, t`,
    [ids],
  );
  await client.query(
    `UPDATE context_items i SET chunk_count = s.n, token_count = s.t
     FROM (SELECT item_id, count(*)::integer AS n, sum(tokens)::integer AS t
           FROM context_chunks WHERE ${of} = ANY($1) GROUP BY item_id) s
     WHERE i.id = s.item_id`,
    [ids],
  );
}

const DROP_SENTENCES = "DROP TABLE bench_vocab, bench_sentences";

/**
 * `count` more chunks of the app written as an ingestion writes them: new items (sources) of
 * `count / items` chunks each, written into the indexed table with their BM25 statistics, and no
 * VACUUM after. A GIN index first queues what is written in its pending list, which every search
 * of the partition reads through until it is merged: the state a search meets while data sources
 * are being added.
 */
export async function writeMoreChunks(app: CorpusApp, count: number, items: number): Promise<void> {
  const client = await pool().connect();
  try {
    await createSentences(client);
    const { rows: added } = await client.query<{ id: string }>(
      `INSERT INTO context_items (app_id, name, type, source, status, size, last_synced_at)
       SELECT $1, 'Added ' || i || '.pdf', 'pdf', 'local files', 'synced', 0, now()
       FROM generate_series(1, ${items}) i RETURNING id`,
      [app.appId],
    );
    const ids = added.map((r) => r.id);
    await client.query("BEGIN");
    await client.query(
      insertChunksSql(app.appId, app.chunks, app.chunks + count, await tsvWritable(client), ids),
    );
    await writeStatistics(client, "item_id", ids);
    await client.query("COMMIT");
    await client.query(DROP_SENTENCES);
  } finally {
    client.release();
  }
}

/** Pages queued in the pending lists of the GIN indexes of context_chunks, all partitions together. */
export async function pendingPages(): Promise<number | null> {
  const client = await pool().connect();
  try {
    // pgstattuple ships with PostgreSQL; a server without it (or without the right) reports none.
    await client.query("CREATE EXTENSION IF NOT EXISTS pgstattuple");
    const { rows } = await client.query<{ pages: string }>(
      `SELECT coalesce(sum((pgstatginindex(i.indexrelid)).pending_pages), 0) AS pages
       FROM pg_partition_tree('context_chunks') p JOIN pg_index i ON i.indrelid = p.relid
       JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
       WHERE p.isleaf AND am.amname = 'gin'`,
    );
    return Number(rows[0]!.pages);
  } catch {
    return null;
  } finally {
    client.release();
  }
}

const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** A big CSV list of an app for smart items filtering: `items` lists of `rowsPerItem` rows. */
export type RowsApp = { appId: string; items: number; rowsPerItem: number };

// The columns of the bench's products CSV (bench/context-fixtures.ts writeProductsCsv).
export const ROW_CATEGORIES = (
  "Audio Computers Phones Kitchen Garden Outdoor Fitness Beauty Toys Books Office Furniture " +
  "Clothing Shoes Bags Lighting Tools Pets"
).split(" ");

/**
 * Fills context_rows of the apps by SQL, as an ingestion of their product lists would leave them:
 * each app's lists are items added one after the other (list order), rows {sku, name, category,
 * price, stock, description} with a unique sku, one of 18 categories, a stock of 0-499. The rows'
 * GIN index is dropped first and built again after, from its own definition (as fillCorpus does).
 */
export async function fillRows(apps: RowsApp[], log: (line: string) => void): Promise<void> {
  const client = await pool().connect();
  try {
    const started = performance.now();
    const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes
       WHERE schemaname = current_schema() AND tablename = 'context_rows'
         AND indexname <> 'context_rows_pkey'`,
    );
    if (!indexes.some((i) => /USING gin \(app_id, data_ci jsonb_path_ops\)/.test(i.indexdef))) {
      throw new Error(
        "context_rows has no GIN index on the lowered rows: the migrations changed, update the bench",
      );
    }
    for (const i of indexes) await client.query(`DROP INDEX ${i.indexname}`);
    await client.query("SELECT setseed(0.3)");
    for (const app of apps) {
      for (let n = 0; n < app.items; n++) {
        // One statement per list, so each is created after the one before (its created_at).
        const { rows } = await client.query<{ id: string }>(
          `INSERT INTO context_items (app_id, name, type, source, status, size, last_synced_at)
           VALUES ($1, $2, 'csv', 'local files', 'synced', 0, now()) RETURNING id`,
          [app.appId, `products ${n + 1}.csv`],
        );
        await client.query(
          `INSERT INTO context_rows (item_id, app_id, position, data)
           SELECT $1, $2, g, jsonb_build_object(
             'sku', 'SKU-' || lpad(($3::int * $4::int + g)::text, 7, '0'),
             'name', (ARRAY['Wireless','Compact','Portable','Premium','Durable'])[1 + floor(random() * 5)::int] || ' ' ||
                     (ARRAY['Chair','Desk','Lamp','Sofa','Table','Bed','Pillow','Cup'])[1 + floor(random() * 8)::int] || ' ' ||
                     substr(md5(random()::text), 1, 6),
             'category', ($5::text[])[1 + floor(random() * 18)::int],
             'price', round((5 + random() * 495)::numeric, 2)::text,
             'stock', floor(random() * 500)::int::text,
             'description', 'The ' || substr(md5(random()::text), 1, 10) || ' for your order and its delivery.')
           FROM generate_series(0, $4::int - 1) g`,
          [rows[0]!.id, app.appId, n, app.rowsPerItem, ROW_CATEGORIES],
        );
      }
    }
    const inserted = performance.now();
    for (const i of indexes) await client.query(i.indexdef);
    await client.query("VACUUM ANALYZE context_rows, context_items");
    const total = apps.reduce((s, a) => s + a.items * a.rowsPerItem, 0);
    log(
      `${total.toLocaleString("en")} rows written in ${sec(inserted - started)}, indexes ` +
        `(${indexes.map((i) => i.indexname).join(", ")}) and VACUUM ANALYZE ${sec(performance.now() - inserted)}`,
    );
  } finally {
    client.release();
  }
}

/**
 * What a tool's users ask: one to three business words, often a tail word (a product's name),
 * often with function words between them ("refund for damaged headphones"). Seeded.
 */
export function makeQueries(count: number): string[] {
  const rand = randomFrom(11);
  const tail = tailWords(TAIL_SIZE);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const queries: string[] = [];
  while (queries.length < count) {
    const r = rand();
    const content = r < 0.25 ? 1 : r < 0.7 ? 2 : 3;
    const words: string[] = [];
    for (let i = 0; i < content; i++) {
      if (i > 0 && rand() < 0.4) words.push(FUNCTION_WORDS[Math.floor(FUNCTION_WORDS.length * rand() ** 2)]!);
      words.push(rand() < 0.2 ? tail[Math.floor(tail.length * rand() ** 2)]! : pick(CONTENT_WORDS));
    }
    queries.push(words.join(" "));
  }
  return queries;
}

export type Timing = { query: string; ms: number; found: number };

/** One retrieval of the top 10, timed around the call a run makes. */
export async function timeRetrieval(appId: string, query: string): Promise<Timing> {
  const started = performance.now();
  const chunks = await retrieveChunks(appId, query, 10);
  return { query, ms: performance.now() - started, found: chunks.length };
}

/**
 * The plans of the search for one query: the exact statements retrieveChunks sends (caught by a
 * logger on a drizzle instance of its own), each run under EXPLAIN ANALYZE.
 */
export async function explainSearch(appId: string, query: string): Promise<string[]> {
  const statements: { sql: string; params: unknown[] }[] = [];
  const spy = drizzle(pool(), {
    schema,
    logger: {
      logQuery: (sql, params) => {
        statements.push({ sql, params });
      },
    },
  });
  await retrieveChunks(appId, query, 10, spy);
  const lines: string[] = [];
  for (const [i, statement] of statements.entries()) {
    const plan = await pool().query<{ "QUERY PLAN": string }>(
      `EXPLAIN (ANALYZE, BUFFERS) ${statement.sql}`,
      statement.params,
    );
    lines.push(
      `statement ${i + 1} of ${statements.length}:`,
      ...plan.rows.map((r) => `  ${r["QUERY PLAN"]}`),
    );
  }
  return lines;
}
