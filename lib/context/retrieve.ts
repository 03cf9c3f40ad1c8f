import "server-only";
import { db, type Executor } from "@/db/client";
import { findMatchingContextRows, type MatchedRow, type RowCondition } from "@/db/queries/context-rows";
import {
  type CandidateChunk,
  chunkKey,
  chunkTexts,
  type RetrievedChunk,
  searchCandidates,
  searchStatistics,
} from "@/db/queries/context-search";
import { CONTEXT_RETRIEVE_LIMIT } from "@/lib/constants";
import { bm25Idf, bm25TermScore } from "./bm25";

export type { MatchedRow, RetrievedChunk, RowCondition };

/**
 * Chunks holding a rare term of the question that are all scored (below this many, the ranking
 * is exact). Their posting lists are short by definition, so reading them is cheap; it is the
 * scoring of each (reading its tsvector) that this bounds.
 */
export const RARE_CANDIDATES_MAX = 300;
/**
 * Chunks scored at most among those holding only the question's common terms, when they could
 * still outrank the ones found by its rare terms. A common term's posting list is long: the scan
 * stops once it has these (docs/data-sources.md, "Data sources: retrieval (BM25)").
 */
export const COMMON_CANDIDATES_MAX = 30;
/**
 * Rare terms are looked up in the chunks' index without their app when other apps' chunks hold
 * them this many times at most, and at most once per OTHER_POSTING_APP_CHUNKS chunks of the app:
 * reading a few other apps' rows is cheaper than matching the app's entry of the index, which lists
 * all its chunks (db/queries/context-search.ts searchCandidates). A row read costs about as much as that
 * many chunks of the entry: a small app's entry is cheap, other apps' rows are not (each is a heap
 * page read, often not cached).
 */
const OTHER_POSTINGS_MAX = 1000;
const OTHER_POSTING_APP_CHUNKS = 500;
/** Common terms that chunks must all hold to be scored as common candidates. */
const COMMON_TERMS_MAX = 4;
/**
 * Candidates read with their text at most: few texts cost less than the statement that would read
 * the winners' afterwards; many (up to RARE_CANDIDATES_MAX) would not.
 */
const TEXTS_WITH_CANDIDATES_MAX = 64;
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
 * Candidates are chosen by the question's rare terms, not by storage order: every chunk holding
 * one of its rarest terms (together in at most RARE_CANDIDATES_MAX chunks) is scored. Only when
 * those are fewer than `limit` are chunks holding its other, common, terms scored too: up to
 * COMMON_CANDIDATES_MAX holding them all. A chunk holding none of the rare terms could outrank
 * one holding them only by repeating many common ones; the top 10 over every chunk hardly ever
 * holds one (tests/integration/context-search.test.ts, npm run bench). An app whose matches are
 * few gets the exact top `limit`; a question made only of terms that most chunks of a big app
 * hold gets the best of a sample.
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
  const rareDf = terms.slice(0, rare).reduce((sum, t) => sum + t.df, 0);
  const postings = terms.slice(0, rare).reduce((sum, t) => sum + t.postings, 0);
  // A long question's many common terms would make the conjunction read as many posting lists and
  // match nothing: its rarest few stand for them.
  const common = names.slice(rare, rare + COMMON_TERMS_MAX);
  const wantCommon = common.length > 0 && rareDf < limit;
  const allOf = { allOf: common, limit: COMMON_CANDIDATES_MAX };
  const firstOf = { allOf: common.slice(0, 1), limit: COMMON_CANDIDATES_MAX };
  // Chunks expected to hold every common term, were the terms independent: when too few, the
  // chunks holding the first of them are asked for in the same statement (a round trip less).
  const expectedAll = terms
    .slice(rare + 1, rare + COMMON_TERMS_MAX)
    .reduce((n, t) => (n * t.df) / stats.chunks, terms[rare]?.df ?? 0);
  const firstToo = wantCommon && common.length > 1 && expectedAll < 2 * limit;
  const candidates = await searchCandidates(
    appId,
    {
      terms: names,
      rare:
        rare > 0
          ? {
              anyOf: names.slice(0, rare),
              limit: RARE_CANDIDATES_MAX,
              fewPostings:
                postings - rareDf <= Math.min(OTHER_POSTINGS_MAX, stats.chunks / OTHER_POSTING_APP_CHUNKS),
            }
          : undefined,
      common: wantCommon ? (firstToo ? [allOf, firstOf] : [allOf]) : undefined,
      withText:
        rareDf + (wantCommon ? (firstToo ? 2 : 1) * COMMON_CANDIDATES_MAX : 0) <= TEXTS_WITH_CANDIDATES_MAX,
    },
    ex,
  );
  // Too few chunks hold every common term: those holding the first of them are scored too.
  const holdingAll = () => candidates.filter((c) => common.every((t) => c.tf[t])).length;
  if (wantCommon && common.length > 1 && !firstToo && holdingAll() < limit) {
    candidates.push(...(await searchCandidates(appId, { terms: names, common: [firstOf] }, ex)));
  }
  const scored = new Map<string, Scored>();
  for (const c of candidates) scored.set(chunkKey(c.itemId, c.position), { chunk: c, score: score(c) });
  return topRanked([...scored.values()], limit, ex);
}

type Scored = { chunk: CandidateChunk; score: number };

/**
 * The best `limit`, with their text, equal scores ordered by source name, position, then item id:
 * never by storage order. Whatever ties with the last place is read too (up to TIES_READ_MAX), so
 * that names can order it.
 */
async function topRanked(scored: Scored[], limit: number, ex: Executor): Promise<RetrievedChunk[]> {
  scored.sort(
    (a, b) =>
      b.score - a.score || a.chunk.position - b.chunk.position || compare(a.chunk.itemId, b.chunk.itemId),
  );
  const cut = scored[limit - 1]?.score ?? Number.NEGATIVE_INFINITY;
  const kept = scored.filter((s, i) => i < limit || (s.score >= cut && i < TIES_READ_MAX));
  const unread = kept.filter((k) => !k.chunk.found).map((k) => k.chunk);
  const texts = await chunkTexts(unread, ex);
  const found: RetrievedChunk[] = [];
  for (const { chunk, score } of kept) {
    const t = chunk.found ?? texts.get(chunkKey(chunk.itemId, chunk.position));
    // A chunk deleted between the two reads (its item re-ingested) is left out.
    if (t)
      found.push({
        itemId: chunk.itemId,
        itemName: t.itemName,
        position: chunk.position,
        text: t.text,
        score,
      });
  }
  return found
    .sort(
      (a, b) =>
        b.score - a.score ||
        compare(a.itemName, b.itemName) ||
        a.position - b.position ||
        compare(a.itemId, b.itemId),
    )
    .slice(0, limit);
}

/** Chunks read at most to order those tied at the last place by name. */
const TIES_READ_MAX = 300;

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

// Rows handed to a model at most: a filter that matches a whole list must not send it all.
const MATCHED_ROWS_MAX = 1000;
const MATCHED_ROWS_DEFAULT = 50;

/**
 * Smart items filtering (an input field's filterCondition): the CSV rows of this app's
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
