// BM25, the ranking of Lucene, Elasticsearch and ParadeDB, with their parameters. The search in
// db/queries/context-search.ts computes it in SQL; this is the same formula in TypeScript, for the
// benchmark's brute-force reference and the tests that compare the two.
//
// Terms are the lexemes of to_tsvector('app_search', text) (the text search configuration of
// migration 0017), for a chunk and for a question alike. A chunk's length is its number of
// indexed tokens (its tsvector's positions: stop words are not counted).

/** Term frequency saturation: how quickly a repeated term stops adding to the score. */
export const BM25_K1 = 1.2;
/** Length normalisation: 0 ignores a chunk's length, 1 scales fully by it. */
export const BM25_B = 0.75;

/** How rare a term is among `chunks` chunks, `df` of which hold it (Lucene's form, never negative). */
export function bm25Idf(chunks: number, df: number): number {
  return Math.log(1 + (chunks - df + 0.5) / (df + 0.5));
}

/** A term's part of a chunk's score: it occurs `tf` times in a chunk of `length` tokens. */
export function bm25TermScore(idf: number, tf: number, length: number, avgLength: number): number {
  if (tf <= 0) return 0;
  const norm = BM25_K1 * (1 - BM25_B + (BM25_B * length) / (avgLength || 1));
  return (idf * tf * (BM25_K1 + 1)) / (tf + norm);
}
