import { sql } from "drizzle-orm";
import { db } from "@/db/client";
import { retrieveChunks } from "@/lib/context/retrieve";
import { retrievalQuery } from "@/lib/runs/prompt";
import { bm25Ranking, type Chunk, parseTsvector, type Ranked, type Terms, termsOf } from "./quality-bm25";

// The three rankings the retrieval-quality benchmark (bench/retrieval-quality.ts) compares over the
// same chunks of one app, each answering the top `limit` chunks of a question, best first:
//  - the product, as a run calls it (lib/runs/grounding.ts: the query retrievalQuery makes of the
//    end user's input, then retrieveChunks);
//  - brute-force BM25 (bench/quality-bm25.ts): every chunk of the app scored in TypeScript from
//    its tsvector as PostgreSQL stores it, the reference the product's ranking should come near;
//  - the ranking from before BM25, kept here as it was: ts_rank
//    over the first 100 matches of the words of the question joined by "or".

export type { Chunk, Ranked };
export type Ranker = (question: string) => Promise<Ranked[]>;

export const RANK_LIMIT = 10;

/** The product's retrieval of a question typed as a tool's main input. */
export function productRanker(appId: string): Ranker {
  return async (question) => {
    const query = retrievalQuery({ input: question });
    if (!query) return [];
    const chunks = await retrieveChunks(appId, query, RANK_LIMIT);
    return chunks.map((c) => ({ itemId: c.itemId, position: c.position, score: c.score }));
  };
}

// --- the ranking from before BM25, kept as it was -------------

// lib/constants.ts RUN_QUERY_WORDS_MAX and CHUNK_CANDIDATES_MAX (db/queries/context.ts) as they were.
const OLD_QUERY_WORDS_MAX = 40;
const OLD_CANDIDATES_MAX = 100;

/** lib/runs/prompt.ts retrievalQuery as it was, for one input: its words (letters and digits) joined by " or ". */
export function oldRetrievalQuery(text: string): string {
  const words: string[] = [];
  for (const w of text.normalize("NFKC").split(/[^\p{L}\p{N}]+/u)) {
    const word = w.toLowerCase();
    // "or" would read as the operator itself.
    if (word.length >= 2 && word !== "or" && !words.includes(word)) words.push(word);
    if (words.length >= OLD_QUERY_WORDS_MAX) break;
  }
  return words.join(" or ");
}

/** db/queries/context.ts searchContextChunks as it was: ts_rank over the first 100 matching chunks. */
export function oldRanker(appId: string): Ranker {
  return async (question) => {
    const query = oldRetrievalQuery(question);
    if (!query) return [];
    const res = await db().execute<{ item_id: string; position: number; rank: number }>(sql`
      select c.item_id, c.position, ts_rank(c.tsv, websearch_to_tsquery('app_search', ${query})) as rank
      from (
        select c.item_id, c.position, c.tsv
        from context_chunks c
        join context_items i on i.id = c.item_id
        where c.app_id = ${appId} and i.app_id = ${appId} and i.status = 'synced'
          and c.tsv @@ websearch_to_tsquery('app_search', ${query})
        limit ${OLD_CANDIDATES_MAX}
      ) c
      order by rank desc, c.item_id, c.position
      limit ${RANK_LIMIT}`);
    return res.rows.map((r) => ({ itemId: r.item_id, position: Number(r.position), score: Number(r.rank) }));
  };
}

// --- brute-force BM25 ----------------------------------------------------------------------------

type Indexed = Chunk & Terms;

/** Every synced chunk of the app, with its text and its terms as stored. */
export async function loadChunks(appId: string): Promise<Indexed[]> {
  const res = await db().execute<{
    item_id: string;
    item_name: string;
    position: number;
    text: string;
    tsv: string;
  }>(sql`
    select c.item_id, i.name as item_name, c.position, c.text, c.tsv::text as tsv
    from context_chunks c
    join context_items i on i.id = c.item_id
    where c.app_id = ${appId} and i.app_id = ${appId} and i.status = 'synced'`);
  return res.rows.map((r) => ({
    itemId: r.item_id,
    itemName: r.item_name,
    position: Number(r.position),
    text: r.text,
    ...termsOf(r.tsv),
  }));
}

/**
 * BM25 over every chunk (bench/quality-bm25.ts); the question's terms are its tsvector, of the
 * same text search configuration as the chunks'.
 */
export function bruteForceRanker(chunks: Indexed[]): Ranker {
  const rank = bm25Ranking(chunks);
  return async (question) => {
    const res = await db().execute<{ tsv: string }>(
      sql`select to_tsvector('app_search', ${question})::text as tsv`,
    );
    return rank([...parseTsvector(res.rows[0]!.tsv).keys()], RANK_LIMIT);
  };
}

export { chunkKey } from "@/db/queries/context-search";
