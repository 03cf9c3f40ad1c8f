import { type SQL, sql } from "drizzle-orm";
import { db, type Executor } from "../client";

// The search of an app's data sources (lib/context/retrieve.ts ranks with what these read): BM25's
// statistics, the candidate chunks with their term counts, and the winners' texts.

export type RetrievedChunk = {
  itemId: string;
  itemName: string;
  position: number;
  text: string;
  /** Its BM25 score for the query (lib/context/bm25.ts): higher is better. */
  score: number;
};

/** BM25's statistics of an app for a question (lib/context/retrieve.ts ranks with them). */
export type SearchStatistics = {
  /** Chunks of the app's synced items, and their tokens. */
  chunks: number;
  tokens: number;
  /**
   * The question's terms that some of those chunks hold, with how many hold each (df), and about
   * how many chunks of every app hold it (the length of its list in the chunks' index; counted
   * over its first POSTINGS_ITEMS_MAX items, POSTINGS_MANY when more hold it).
   */
  terms: { term: string; df: number; postings: number }[];
};

const POSTINGS_MANY = 2_147_483_647;
const POSTINGS_ITEMS_MAX = 1000;

/**
 * The question's terms, by the same text search configuration as the chunks' (to_tsvector
 * 'app_search': one tokenizer on both sides, so `0.21`, `audio/midi` or an e-mail address are one
 * term in either), and the statistics of the app's synced items: summed from their counts
 * (context_items, context_item_terms), which an ingestion writes with its chunks.
 */
export async function searchStatistics(
  appId: string,
  question: string,
  ex: Executor = db(),
): Promise<SearchStatistics> {
  const res = await ex.execute<{
    chunks: string;
    tokens: string;
    terms: [string, number, number][] | null;
  }>(sql`
    with live as (
      select id, chunk_count, token_count from context_items
      where app_id = ${appId} and status = 'synced'
    )
    select
      (select coalesce(sum(chunk_count), 0) from live) as chunks,
      (select coalesce(sum(token_count), 0) from live) as tokens,
      (select json_agg(json_build_array(s.term, s.df, (
         select case when count(*) > ${POSTINGS_ITEMS_MAX} then ${POSTINGS_MANY} else coalesce(sum(g.chunks), 0) end
         from (select g.chunks from context_item_terms g where g.term = s.term limit ${POSTINGS_ITEMS_MAX + 1}) g)))
       from (
         select t.term, sum(t.chunks)::integer as df
         from context_item_terms t join live on live.id = t.item_id
         where t.app_id = ${appId}
           and t.term = any(tsvector_to_array(to_tsvector('app_search', ${question})))
         group by t.term) s) as terms`);
  const row = res.rows[0]!;
  return {
    chunks: Number(row.chunks),
    tokens: Number(row.tokens),
    terms: (row.terms ?? []).map(([term, df, postings]) => ({ term, df, postings: Number(postings) })),
  };
}

/**
 * A chunk that may rank: where it is, its length, and how often it holds each term asked about;
 * with its text and item's name when they were asked for (`CandidateQuery.withText`).
 */
export type CandidateChunk = {
  itemId: string;
  position: number;
  tokens: number;
  tf: Record<string, number>;
  found?: { text: string; itemName: string };
};

/** Which chunks a search scores (lib/context/retrieve.ts chooses them from the statistics). */
export type CandidateQuery = {
  /** The question's terms: each candidate comes with how often it holds each. */
  terms: readonly string[];
  /** Every chunk holding any of these rare terms, up to `rareLimit`. */
  rare?: { anyOf: readonly string[]; limit: number; fewPostings: boolean };
  /** For each conjunction, up to `limit` chunks holding all of its common terms, in storage order. */
  common?: readonly { allOf: readonly string[]; limit: number }[];
  /** Each with its text and item's name, sparing a second statement when they are few. */
  withText?: boolean;
};

/**
 * The app's chunks of synced items that a search scores, each with its counts of the question's
 * terms (its tsvector's positions of them), and its text only when asked for: one statement. Items
 * not synced are left out before any limit, so their chunks never take a synced one's place.
 *
 * Found through the GIN index on (app_id, tsv). Matching its app_id entry costs about a
 * millisecond a partition even for a handful of chunks (the app's entry lists all its chunks), so
 * rare terms whose lists are short in every app (`fewPostings`: searchStatistics) are asked of the
 * index alone and the app checked on the rows. The table is 8 hash partitions by item (migration
 * 0018): under a limit the scan of common terms stops at the partition that completes it, since a
 * bitmap scan reads a partition's whole posting lists before it returns a row.
 */
export async function searchCandidates(
  appId: string,
  want: CandidateQuery,
  ex: Executor = db(),
): Promise<CandidateChunk[]> {
  const terms = sql.param([...want.terms]);
  const found = want.withText ? sql`, c.text, i.name as item_name` : sql``;
  const scan = (ofApp: SQL, query: string, limit: number) => sql`
    select c.item_id, c.position, c.tokens, ts_filter(setweight(c.tsv, 'A', ${terms}::text[]), '{a}')::text as tf${found}
    from context_chunks c join context_items i on i.id = c.item_id and i.status = 'synced'
    where ${ofApp} and c.tsv @@ ${query}::tsquery
    limit ${limit}`;
  const ofApp = sql`c.app_id = ${appId}`;
  const parts: SQL[] = [];
  if (want.rare?.anyOf.length) {
    // Compared as text, app_id is no condition the index can take.
    const where = want.rare.fewPostings ? sql`c.app_id::text = ${appId}` : ofApp;
    parts.push(sql`(${scan(where, tsqueryOf(want.rare.anyOf, " | "), want.rare.limit)})`);
  }
  for (const common of want.common ?? []) {
    if (common.allOf.length) parts.push(sql`(${scan(ofApp, tsqueryOf(common.allOf, " & "), common.limit)})`);
  }
  if (parts.length === 0) return [];
  const res = await ex.execute<{
    item_id: string;
    position: number;
    tokens: number | null;
    tf: string;
    text?: string;
    item_name?: string;
  }>(sql.join(parts, sql` union all `));
  return res.rows.map((r) => ({
    itemId: r.item_id,
    position: Number(r.position),
    tokens: Number(r.tokens ?? 0),
    tf: termCounts(r.tf),
    ...(r.text !== undefined ? { found: { text: r.text, itemName: r.item_name! } } : {}),
  }));
}

/**
 * How often each lexeme occurs, from a tsvector's text form (`'refund':3A,9A 'it''s':5`): its
 * positions, or once for a lexeme stored without any; quotes and backslashes are doubled inside a
 * lexeme. Read here rather than in SQL, where unnesting each candidate's vector cost three times as
 * much as the whole fetch.
 */
export function termCounts(tsvector: string): Record<string, number> {
  // No prototype: a lexeme may be "constructor" or "__proto__".
  const counts: Record<string, number> = Object.create(null);
  for (const m of tsvector.matchAll(/'((?:[^'\\]|''|\\.)*)'(?::([0-9A-D,]+))?/g)) {
    const lexeme = m[1]!.replace(/''/g, "'").replace(/\\(.)/g, "$1");
    counts[lexeme] = (counts[lexeme] ?? 0) + (m[2] ? m[2].split(",").length : 1);
  }
  return counts;
}

/** The text of chunks, and their item's name, by item and position. */
export async function chunkTexts(
  keys: readonly { itemId: string; position: number }[],
  ex: Executor = db(),
): Promise<Map<string, { text: string; itemName: string }>> {
  if (keys.length === 0) return new Map();
  const res = await ex.execute<{ item_id: string; position: number; text: string; item_name: string }>(sql`
    select c.item_id, c.position, c.text, i.name as item_name
    from unnest(${sql.param(keys.map((k) => k.itemId))}::uuid[], ${sql.param(keys.map((k) => k.position))}::integer[])
      as k(item_id, position)
    join context_chunks c on c.item_id = k.item_id and c.position = k.position
    join context_items i on i.id = c.item_id`);
  return new Map(
    res.rows.map((r) => [chunkKey(r.item_id, Number(r.position)), { text: r.text, itemName: r.item_name }]),
  );
}

export const chunkKey = (itemId: string, position: number) => `${itemId}:${position}`;

/**
 * A tsquery of lexemes as they are (the text form, each quoted: no parsing or normalisation, so a
 * lexeme holding spaces, quotes, `:` or `|` stays one), joined by an operator.
 */
function tsqueryOf(lexemes: readonly string[], operator: " | " | " & "): string {
  return lexemes.map((l) => `'${l.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`).join(operator);
}
