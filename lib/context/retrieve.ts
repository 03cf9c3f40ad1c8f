import "server-only";
import { db, type Executor } from "@/db/client";
import {
  type CandidateChunk,
  chunkKey,
  chunkTexts,
  findMatchingContextRows,
  type MatchedRow,
  type RetrievedChunk,
  type RowCondition,
  searchCandidates,
  searchStatistics,
} from "@/db/queries/context";
import { CONTEXT_RETRIEVE_LIMIT } from "@/lib/constants";
import { BM25_K1, bm25Idf, bm25TermScore } from "./bm25";

export type { MatchedRow, RetrievedChunk, RowCondition };

/**
 * Chunks holding a rare term of the question that are all scored (below this many, the ranking
 * is exact). Their posting lists are short by definition, so reading them is cheap; it is the
 * scoring of each (reading its tsvector) that this bounds.
 */
export const RARE_CANDIDATES_MAX = 1000;
/**
 * Chunks scored at most among those holding only the question's common terms, when they could
 * still outrank the ones found by its rare terms. A common term's posting list is long: the scan
 * stops once it has these (docs/decisions.md, "Retrieval: BM25").
 */
export const COMMON_CANDIDATES_MAX = 100;
/** Characters of a question that are searched: a run's inputs can be long. */
const QUESTION_CHARS_MAX = 4000;

/**
 * The chunks of this app's synced data sources most relevant to the question, best first, ranked
 * by BM25 (lib/context/bm25.ts): a term counts by its rarity among the app's chunks, saturates as
 * it repeats, and weighs more in a short chunk. The question is plain text, split into terms by
 * PostgreSQL as the chunks were; a chunk needs one of its terms to be found at all. Equal scores
 * are ordered by source name, then position, so the same data gives the same answer. Items still
 * syncing or in error, and every other app's data, are never returned.
 *
 * Candidates are chosen as in MaxScore: the chunks holding the question's rarest terms (together
 * in at most RARE_CANDIDATES_MAX chunks) are all scored; a chunk holding none of them can score at
 * most what the other terms can add (their idf × (k1 + 1)), so only when that could beat the last
 * of the top `limit` are chunks holding every other term scored too, COMMON_CANDIDATES_MAX of
 * them at most. A question whose terms are all rare, or an app whose matches are few, gets the
 * exact top `limit`; one made only of terms that most chunks hold gets the best of a sample.
 */
export async function retrieveChunks(
  appId: string,
  question: string,
  limit = CONTEXT_RETRIEVE_LIMIT,
  ex: Executor = db(),
): Promise<RetrievedChunk[]> {
  // PostgreSQL takes no NUL in a text; it separates nothing a space would not.
  const text = question.slice(0, QUESTION_CHARS_MAX).replaceAll("\0", " ");
  limit = Math.min(limit, 100);
  if (!text.trim() || limit < 1) return [];
  const stats = await searchStatistics(appId, text, ex);
  if (stats.terms.length === 0 || stats.chunks === 0) return [];
  const terms = stats.terms
    .map((t) => ({ ...t, idf: bm25Idf(stats.chunks, t.df) }))
    .sort((a, b) => a.df - b.df || (a.term < b.term ? -1 : 1));
  const names = terms.map((t) => t.term);
  let rare = 0;
  for (let total = 0; rare < terms.length && total + terms[rare]!.df <= RARE_CANDIDATES_MAX; rare++) {
    total += terms[rare]!.df;
  }
  const avgLength = stats.tokens / stats.chunks;
  const score = (c: CandidateChunk) => {
    let sum = 0;
    for (const t of terms) sum += bm25TermScore(t.idf, c.tf[t.term] ?? 0, c.tokens, avgLength);
    return sum;
  };
  const scored = new Map<string, { chunk: CandidateChunk; score: number }>();
  const add = (chunks: CandidateChunk[]) => {
    for (const c of chunks) scored.set(chunkKey(c.itemId, c.position), { chunk: c, score: score(c) });
  };
  if (rare > 0) {
    add(
      await searchCandidates(
        appId,
        { terms: names, anyOf: names.slice(0, rare), limit: RARE_CANDIDATES_MAX },
        ex,
      ),
    );
  }
  const common = terms.slice(rare);
  const bound = common.reduce((sum, t) => sum + t.idf * (BM25_K1 + 1), 0);
  if (common.length > 0 && lastOfTop([...scored.values()], limit) < bound) {
    const allOf = common.map((t) => t.term);
    add(await searchCandidates(appId, { terms: names, allOf, limit: COMMON_CANDIDATES_MAX }, ex));
    if (rare === 0) {
      // No chunk may hold them all: the rarest of them alone, too.
      add(
        await searchCandidates(
          appId,
          { terms: names, allOf: allOf.slice(0, 1), limit: COMMON_CANDIDATES_MAX },
          ex,
        ),
      );
    }
  }
  const best = [...scored.values()].sort(byRank).slice(0, limit);
  const texts = await chunkTexts(
    best.map((b) => b.chunk),
    ex,
  );
  return best.flatMap(({ chunk, score }) => {
    const text = texts.get(chunkKey(chunk.itemId, chunk.position));
    // A chunk deleted between the two reads (its item re-ingested) is left out.
    return text === undefined
      ? []
      : [{ itemId: chunk.itemId, itemName: chunk.itemName, position: chunk.position, text, score }];
  });
}

type Scored = { chunk: CandidateChunk; score: number };

/** Best first; equal scores by source name, position, then item id: never by storage order. */
function byRank(a: Scored, b: Scored): number {
  return (
    b.score - a.score ||
    compare(a.chunk.itemName, b.chunk.itemName) ||
    a.chunk.position - b.chunk.position ||
    compare(a.chunk.itemId, b.chunk.itemId)
  );
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The score a chunk must beat to enter the top `limit`: 0 while there are fewer. */
function lastOfTop(scored: Scored[], limit: number): number {
  if (scored.length < limit) return 0;
  return scored.map((s) => s.score).sort((a, b) => b - a)[limit - 1]!;
}

// Rows handed to a model at most: a filter that matches a whole list must not send it all.
const MATCHED_ROWS_MAX = 1000;
const MATCHED_ROWS_DEFAULT = 50;

/**
 * Smart items filtering (spec 1 §5, an input field's filterCondition): the CSV rows of this app's
 * synced items whose `column` is one of `values` (include) or none of them (exclude), every
 * condition at once, compared case-insensitively and without surrounding spaces in the values
 * asked for. A condition without values (the field was left empty) filters nothing. In list
 * order: item by item, rows as in the file.
 */
export async function findMatchingRows(
  appId: string,
  conditions: readonly RowCondition[],
  opts: { limit?: number } = {},
): Promise<MatchedRow[]> {
  const limit = Math.min(Math.max(Math.trunc(opts.limit ?? MATCHED_ROWS_DEFAULT), 0), MATCHED_ROWS_MAX);
  if (limit === 0) return [];
  const effective = conditions
    .map((c) => ({ ...c, values: c.values.map((v) => v.trim()).filter((v) => v !== "") }))
    .filter((c) => c.values.length > 0);
  return findMatchingContextRows(appId, effective, limit);
}
