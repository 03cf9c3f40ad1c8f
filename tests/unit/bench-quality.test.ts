import { describe, expect, it } from "vitest";
import { bm25Ranking, parseTsvector, termsOf } from "@/bench/quality-bm25";
import { tarEntries } from "@/bench/quality-datasets";
import { bm25Idf, bm25TermScore } from "@/lib/context/bm25";

// The retrieval-quality benchmark's own parts that its figures rest on: the brute-force BM25 it
// compares the product with, and the tar reader that unpacks its datasets.

describe("parseTsvector", () => {
  it("counts a lexeme's positions, weights and all, and unescapes quotes and backslashes", () => {
    const tf = parseTsvector(`'0.21':3 'audio/midi':1,7B 'o''brien':2 'a\\\\b':4 'kar':5,6,8`);
    expect(Object.fromEntries(tf)).toEqual({ "0.21": 1, "audio/midi": 2, "o'brien": 1, "a\\b": 1, kar: 3 });
  });

  it("counts a lexeme stored without positions once", () => {
    expect(termsOf("'stripped' 'kept':1,2")).toEqual({
      tf: new Map([
        ["stripped", 1],
        ["kept", 2],
      ]),
      length: 3,
    });
  });
});

describe("bm25Ranking", () => {
  const chunk = (itemName: string, position: number, tsv: string) => ({
    itemId: `id-${itemName}`,
    itemName,
    position,
    text: "",
    ...termsOf(tsv),
  });
  const chunks = [
    chunk("b.csv", 0, "'city':1,3,5 'code':2,4"),
    chunk("a.csv", 1, "'city':1 'code':2 '12414':3 'catskil':4"),
    chunk("a.csv", 0, "'city':1 'code':2"),
    chunk("c.csv", 0, "'other':1"),
  ];

  it("ranks the chunk holding the rare term first, with the formula of lib/context/bm25.ts", () => {
    const top = bm25Ranking(chunks)(["city", "code", "12414", "city"], 10);
    expect(top.map((r) => `${r.itemId}#${r.position}`)).toEqual(["id-a.csv#1", "id-b.csv#0", "id-a.csv#0"]);
    const avg = (5 + 4 + 2 + 1) / 4;
    const expected =
      bm25TermScore(bm25Idf(4, 3), 1, 4, avg) +
      bm25TermScore(bm25Idf(4, 3), 1, 4, avg) +
      bm25TermScore(bm25Idf(4, 1), 1, 4, avg);
    expect(top[0]!.score).toBeCloseTo(expected, 10);
  });

  it("orders equal scores by item name, then position", () => {
    const same = [chunk("b.csv", 2, "'x':1"), chunk("a.csv", 5, "'x':1"), chunk("a.csv", 3, "'x':1")];
    const top = bm25Ranking(same)(["x"], 2);
    expect(top.map((r) => `${r.itemId}#${r.position}`)).toEqual(["id-a.csv#3", "id-a.csv#5"]);
  });
});

describe("tarEntries", () => {
  /** A ustar header and its data, padded to 512-byte blocks. */
  const entry = (name: string, data: string, type = "0", prefix = "") => {
    const header = Buffer.alloc(512);
    header.write(name, 0);
    header.write(`${Buffer.byteLength(data).toString(8).padStart(11, "0")}\0`, 124);
    header.write(type, 156);
    header.write("ustar\0", 257);
    header.write(prefix, 345);
    const body = Buffer.alloc(Math.ceil(Buffer.byteLength(data) / 512) * 512);
    body.write(data);
    return Buffer.concat([header, body]);
  };

  it("reads regular files with their prefixed names, skipping directories and extended headers", () => {
    const tar = Buffer.concat([
      entry("package/", "", "5"),
      entry("PaxHeader", "30 path=package/data/x.csv\n", "x"),
      entry("zipcodes.csv", "zip_code,city\n12414,Catskill\n", "0", "package/data"),
      entry("package/README.md", "x".repeat(600)),
      Buffer.alloc(1024),
    ]);
    const files = [...tarEntries(tar)].map((e) => [e.name, e.data.toString()]);
    expect(files).toEqual([
      ["package/data/zipcodes.csv", "zip_code,city\n12414,Catskill\n"],
      ["package/README.md", "x".repeat(600)],
    ]);
  });
});
