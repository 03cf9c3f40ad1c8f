import { CONTEXT_CHUNK_OVERLAP, CONTEXT_CHUNK_SIZE } from "@/lib/constants";

/**
 * Splits text into windows of `size` characters, each sharing `overlap` characters with the one
 * before it (1000 and 200 for context data). Characters are code points, so an emoji or any letter
 * outside the BMP is never cut in half. Whitespace-only windows are dropped: no chunk is empty.
 */
export function chunkText(
  text: string,
  size = CONTEXT_CHUNK_SIZE,
  overlap = CONTEXT_CHUNK_OVERLAP,
): string[] {
  const chunker = new TextChunker(size, overlap);
  return [...chunker.push(text), ...chunker.end()];
}

/**
 * chunkText for a text that arrives in pieces (a CSV's rows as they are parsed): the chunks of
 * everything pushed, in order, exactly as chunkText would cut the whole. It holds one window,
 * never the text read before it.
 */
export class TextChunker {
  /** The text from the current window's start on (from `at`); what came before is gone. */
  private buffer = "";
  private at = 0;
  /** Code points in the buffer from `at`. */
  private length = 0;

  constructor(
    private readonly size = CONTEXT_CHUNK_SIZE,
    private readonly overlap = CONTEXT_CHUNK_OVERLAP,
  ) {
    if (!Number.isInteger(size) || size < 1) throw new Error("chunk size must be a positive integer");
    if (!Number.isInteger(overlap) || overlap < 0 || overlap >= size) {
      throw new Error("overlap must be at least 0 and smaller than the chunk size");
    }
  }

  /** Adds text; answers the chunks it completed. */
  push(text: string): string[] {
    if (!text) return [];
    // A surrogate pair cut between two pieces is one character, not two.
    const joined = isHigh(this.buffer.charCodeAt(this.buffer.length - 1)) && isLow(text.charCodeAt(0));
    this.buffer = this.at > 0 ? this.buffer.slice(this.at) + text : this.buffer + text;
    this.at = 0;
    this.length += countCodePoints(text) - (joined ? 1 : 0);
    const chunks: string[] = [];
    const step = this.size - this.overlap;
    // A window is the last one only if the text ends within it, so one is cut only once more
    // text follows it; end() cuts the last.
    while (this.length > this.size) {
      const next = advance(this.buffer, this.at, step);
      const piece = this.buffer.slice(this.at, advance(this.buffer, next, this.overlap));
      if (piece.trim()) chunks.push(piece);
      this.at = next;
      this.length -= step;
    }
    return chunks;
  }

  /** The last chunk, if the text left one; the chunker is empty afterwards. */
  end(): string[] {
    const piece = this.buffer.slice(this.at);
    this.buffer = "";
    this.at = 0;
    this.length = 0;
    return piece.trim() ? [piece] : [];
  }
}

/**
 * Chunks of whole lines (a CSV's rows, each "header: value; ..."): lines are packed, joined by
 * newlines, into chunks of at most `size` characters, and a line that does not fit in one is cut
 * as chunkText cuts a text. A row is never split between two chunks when it fits in one, so the
 * chunk a question about a row's value finds holds the whole row; with no overlap, no row is sent
 * to a model twice.
 */
export function chunkLines(lines: Iterable<string>, size = CONTEXT_CHUNK_SIZE): string[] {
  const chunker = new LineChunker(size);
  const chunks: string[] = [];
  for (const line of lines) chunks.push(...chunker.push(line));
  return [...chunks, ...chunker.end()];
}

/** chunkLines for lines that arrive one at a time (a CSV as it is parsed). */
export class LineChunker {
  private lines: string[] = [];
  /** Code points of the lines held, with the newlines that will join them. */
  private length = 0;

  /** A long line's windows share as much as a text's do, in proportion to the size. */
  private readonly overlap: number;

  constructor(private readonly size = CONTEXT_CHUNK_SIZE) {
    this.overlap = Math.floor((size * CONTEXT_CHUNK_OVERLAP) / CONTEXT_CHUNK_SIZE);
  }

  /** Adds a line; answers the chunks it completed. */
  push(line: string): string[] {
    if (!line.trim()) return [];
    const n = countCodePoints(line);
    if (n > this.size) return [...this.end(), ...chunkText(line, this.size, this.overlap)];
    const out = this.lines.length > 0 && this.length + 1 + n > this.size ? this.end() : [];
    this.length += (this.lines.length > 0 ? 1 : 0) + n;
    this.lines.push(line);
    return out;
  }

  /** The chunk of the lines held, if any; the chunker is empty afterwards. */
  end(): string[] {
    const chunk = this.lines.join("\n");
    this.lines = [];
    this.length = 0;
    return chunk ? [chunk] : [];
  }
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** The index `count` code points after `from`. */
function advance(text: string, from: number, count: number): number {
  let i = from;
  for (let n = 0; n < count && i < text.length; n++) {
    i += isHigh(text.charCodeAt(i)) && isLow(text.charCodeAt(i + 1)) ? 2 : 1;
  }
  return i;
}

/** The characters of a text as chunks count them: code points, a surrogate pair being one. */
export function countCodePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++, n++) {
    if (isHigh(text.charCodeAt(i)) && isLow(text.charCodeAt(i + 1))) i++;
  }
  return n;
}
