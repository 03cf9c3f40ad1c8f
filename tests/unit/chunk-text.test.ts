import { describe, expect, it } from "vitest";
import { chunkLines, chunkText, countCodePoints, LineChunker, TextChunker } from "@/lib/context/chunk-text";

describe("chunkText (1000 characters, 200 overlap)", () => {
  it("keeps a short text whole and drops empty or blank text", () => {
    expect(chunkText("hello world")).toEqual(["hello world"]);
    expect(chunkText("")).toEqual([]);
    expect(chunkText("   \n\t ")).toEqual([]);
  });

  it("a text of exactly one chunk stays one chunk; one character more makes two", () => {
    const exact = "a".repeat(1000);
    expect(chunkText(exact)).toEqual([exact]);
    const more = `${"a".repeat(1000)}b`;
    const chunks = chunkText(more);
    expect(chunks).toHaveLength(2);
    expect(chunks[0]).toHaveLength(1000);
    expect(chunks[1]).toBe(`${"a".repeat(200)}b`);
  });

  it("each chunk starts 800 characters after the last and shares 200 with it; together they cover the text", () => {
    const text = Array.from({ length: 2700 }, (_, i) => String.fromCharCode(97 + (i % 26))).join("");
    const chunks = chunkText(text);
    expect(chunks.map((c) => c.length)).toEqual([1000, 1000, 1000, 300]);
    for (let i = 1; i < chunks.length; i++) {
      expect(chunks[i]!.slice(0, 200)).toBe(chunks[i - 1]!.slice(800));
      expect(chunks[i]).toBe(text.slice(i * 800, i * 800 + 1000));
    }
    expect(chunks.at(-1)!.endsWith(text.slice(-10))).toBe(true);
  });

  it("counts code points: an emoji or a letter outside the BMP is never split", () => {
    const text = "😀".repeat(1500);
    const chunks = chunkText(text);
    expect(chunks.map((c) => Array.from(c).length)).toEqual([1000, 700]);
    for (const c of chunks) expect(c).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it("never returns a blank chunk, even when a window holds only whitespace", () => {
    const text = `${"x".repeat(10)}${" ".repeat(3000)}${"y".repeat(10)}`;
    const chunks = chunkText(text);
    expect(chunks.length).toBeGreaterThan(0);
    for (const c of chunks) expect(c.trim()).not.toBe("");
    expect(chunks[0]!.startsWith("x")).toBe(true);
    expect(chunks.at(-1)!.endsWith("y")).toBe(true);
  });

  it("refuses an overlap as large as the chunk", () => {
    expect(() => chunkText("abc", 10, 10)).toThrow();
    expect(() => chunkText("abc", 0, 0)).toThrow();
  });
});

// The rule written the plain way (every code point in an array), to check the cutter against.
function reference(text: string, size: number, overlap: number): string[] {
  const chars = Array.from(text);
  const chunks: string[] = [];
  for (let start = 0; start < chars.length; start += size - overlap) {
    const piece = chars.slice(start, start + size).join("");
    if (piece.trim()) chunks.push(piece);
    if (start + size >= chars.length) break;
  }
  return chunks;
}

// A deterministic generator, so a failure can be replayed.
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

const ALPHABET = ["a", "b", " ", "\n", "é", "😀", "\t", "Z"];

describe("TextChunker (chunkText for text that arrives in pieces)", () => {
  it("cuts pieces pushed one by one exactly as the whole text, for any split", () => {
    const rnd = random(7);
    for (let round = 0; round < 200; round++) {
      const size = 1 + Math.floor(rnd() * 40);
      const overlap = Math.floor(rnd() * size);
      const pieces = Array.from({ length: Math.floor(rnd() * 12) }, () =>
        Array.from(
          { length: Math.floor(rnd() * 30) },
          () => ALPHABET[Math.floor(rnd() * ALPHABET.length)],
        ).join(""),
      );
      const chunker = new TextChunker(size, overlap);
      const streamed = [...pieces.flatMap((p) => chunker.push(p)), ...chunker.end()];
      const whole = pieces.join("");
      expect(streamed).toEqual(reference(whole, size, overlap));
      expect(chunkText(whole, size, overlap)).toEqual(reference(whole, size, overlap));
    }
  });

  it("a surrogate pair split between two pieces stays one character", () => {
    const [high, low] = ["😀".charAt(0), "😀".charAt(1)];
    const chunker = new TextChunker(3, 1);
    const streamed = [...chunker.push(`ab${high}`), ...chunker.push(`${low}cd`), ...chunker.end()];
    expect(streamed).toEqual(reference("ab😀cd", 3, 1));
  });

  it("holds only the current window, however much was pushed", () => {
    const chunker = new TextChunker();
    let count = 0;
    for (let i = 0; i < 10_000; i++) count += chunker.push(`row ${i}: ${"x".repeat(90)}\n`).length;
    const held = (chunker as unknown as { buffer: string; at: number }).buffer.length;
    expect(held).toBeLessThan(1000 + 200);
    expect(count + chunker.end().length).toBe(
      reference(Array.from({ length: 10_000 }, (_, i) => `row ${i}: ${"x".repeat(90)}\n`).join(""), 1000, 200)
        .length,
    );
  });

  it("counts code points", () => {
    expect(countCodePoints("a😀é")).toBe(3);
    expect(countCodePoints("")).toBe(0);
    expect(countCodePoints("\uD800x")).toBe(2);
  });
});

describe("chunkLines (a CSV's rows)", () => {
  it("packs whole lines up to the size, never splitting one that fits", () => {
    const lines = Array.from({ length: 50 }, (_, i) => `zip: ${10000 + i}; city: Town ${i}; state: NY`);
    const chunks = chunkLines(lines, 100);
    expect(chunks.join("\n")).toBe(lines.join("\n"));
    for (const c of chunks) {
      expect(countCodePoints(c)).toBeLessThanOrEqual(100);
      for (const l of c.split("\n")) expect(lines).toContain(l);
    }
    // Packed: no chunk could have taken the next line.
    for (let i = 0; i + 1 < chunks.length; i++) {
      expect(
        countCodePoints(chunks[i]!) + 1 + countCodePoints(chunks[i + 1]!.split("\n")[0]!),
      ).toBeGreaterThan(100);
    }
  });

  it("cuts a line longer than a chunk as a text, and skips blank ones", () => {
    const long = "x".repeat(250);
    expect(chunkLines(["a", long, "  ", "b"], 100)).toEqual(["a", ...chunkText(long, 100, 20), "b"]);
    expect(chunkLines([])).toEqual([]);
  });

  it("gives the same chunks a line at a time", () => {
    const lines = Array.from({ length: 300 }, (_, i) => `row ${i} ${"é".repeat(i % 40)}😀`);
    const chunker = new LineChunker(120);
    const streamed = [...lines.flatMap((l) => chunker.push(l)), ...chunker.end()];
    expect(streamed).toEqual(chunkLines(lines, 120));
  });
});
