import { describe, expect, it } from "vitest";
import { chunkText } from "@/lib/context/chunk-text";

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
