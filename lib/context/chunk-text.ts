import { CONTEXT_CHUNK_OVERLAP, CONTEXT_CHUNK_SIZE } from "@/lib/constants";

/**
 * Splits text into windows of `size` characters, each sharing `overlap` characters with the one
 * before it (spec 1 §9: 1000 and 200). Characters are code points, so an emoji or any letter
 * outside the BMP is never cut in half. Whitespace-only windows are dropped: no chunk is empty.
 */
export function chunkText(
  text: string,
  size = CONTEXT_CHUNK_SIZE,
  overlap = CONTEXT_CHUNK_OVERLAP,
): string[] {
  if (!Number.isInteger(size) || size < 1) throw new Error("chunk size must be a positive integer");
  if (!Number.isInteger(overlap) || overlap < 0 || overlap >= size) {
    throw new Error("overlap must be at least 0 and smaller than the chunk size");
  }
  const chars = Array.from(text);
  const step = size - overlap;
  const chunks: string[] = [];
  for (let start = 0; start < chars.length; start += step) {
    const piece = chars.slice(start, start + size).join("");
    if (piece.trim()) chunks.push(piece);
    // The window reached the end: another would only repeat its overlap.
    if (start + size >= chars.length) break;
  }
  return chunks;
}
