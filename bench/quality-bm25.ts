import { termCounts } from "@/db/queries/context-search";
import { bm25Idf, bm25TermScore } from "@/lib/context/bm25";

// Brute-force BM25 for the retrieval-quality benchmark (bench/quality-rankers.ts): every chunk of
// an app scored from its terms as PostgreSQL stores them (its tsvector), the reference ranking the
// product's should come near. Pure, so tests/unit can check it.

export type Ranked = { itemId: string; position: number; score: number };
export type Chunk = { itemId: string; itemName: string; position: number; text: string };
/** A chunk's term frequencies and its length (its tsvector's positions). */
export type Terms = { tf: Map<string, number>; length: number };

/** A tsvector's text as term frequencies: the product's own reading of it (db/queries/context.ts). */
export function parseTsvector(text: string): Map<string, number> {
  return new Map(Object.entries(termCounts(text)));
}

/** A chunk's terms from its tsvector's text. */
export function termsOf(tsv: string): Terms {
  const tf = parseTsvector(tsv);
  let length = 0;
  for (const n of tf.values()) length += n;
  return { tf, length };
}

/**
 * BM25 over all `chunks`: N is their number, a term's document frequency the chunks holding it,
 * the average length over them all; each distinct term of the question adds its score. Chunks
 * holding none are left out; equal scores go in item name, then position order.
 */
export function bm25Ranking(chunks: readonly (Chunk & Terms)[]) {
  const df = new Map<string, number>();
  let total = 0;
  for (const c of chunks) {
    total += c.length;
    for (const term of c.tf.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  }
  const avgLength = chunks.length ? total / chunks.length : 0;
  return (questionTerms: readonly string[], limit: number): Ranked[] => {
    const terms = [...new Set(questionTerms)].filter((t) => df.has(t));
    const idf = terms.map((t) => bm25Idf(chunks.length, df.get(t)!));
    const scored: { chunk: Chunk; score: number }[] = [];
    for (const c of chunks) {
      let score = 0;
      for (const [i, t] of terms.entries())
        score += bm25TermScore(idf[i]!, c.tf.get(t) ?? 0, c.length, avgLength);
      if (score > 0) scored.push({ chunk: c, score });
    }
    scored.sort(
      (a, b) =>
        b.score - a.score ||
        (a.chunk.itemName < b.chunk.itemName ? -1 : a.chunk.itemName > b.chunk.itemName ? 1 : 0) ||
        a.chunk.position - b.chunk.position,
    );
    return scored
      .slice(0, limit)
      .map(({ chunk, score }) => ({ itemId: chunk.itemId, position: chunk.position, score }));
  };
}
