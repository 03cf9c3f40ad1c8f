import { describe, expect, it } from "vitest";
import { type DiffLine, diffLines, diffStats, foldUnchanged, splitLines } from "@/lib/space/line-diff";

// The line diff of the all-changes dialog: every line of both files appears once, in order, and
// the unchanged ones are a longest common subsequence.

/** The old file read back from the diff, and the new one. */
const sides = (d: DiffLine[]) => ({
  before: d.filter((l) => l.type !== "added").map((l) => l.text),
  after: d.filter((l) => l.type !== "removed").map((l) => l.text),
});
const compact = (d: DiffLine[]) =>
  d.map((l) => `${l.type === "same" ? " " : l.type === "added" ? "+" : "-"}${l.text}`);

describe("diffLines", () => {
  it("marks one changed line as removed then added, numbering both sides", () => {
    const d = diffLines("a\nb\nc\n", "a\nB\nc\n");
    expect(compact(d)).toEqual([" a", "-b", "+B", " c"]);
    expect(d[1]).toMatchObject({ type: "removed", text: "b", oldLine: 2 });
    expect(d[2]).toMatchObject({ type: "added", text: "B", newLine: 2 });
    expect(d[3]).toEqual({ type: "same", text: "c", oldLine: 3, newLine: 3 });
  });

  it("an added file is all additions, a deleted one all removals", () => {
    expect(compact(diffLines("", "x\ny"))).toEqual(["+x", "+y"]);
    expect(compact(diffLines("x\ny\n", ""))).toEqual(["-x", "-y"]);
    expect(diffLines("same\n", "same\n")).toEqual([{ type: "same", text: "same", oldLine: 1, newLine: 1 }]);
  });

  it("keeps the longest common part when lines move", () => {
    const d = diffLines("1\n2\n3\n4\n5\n6", "1\n3\n4\n2\n5\n6");
    expect(diffStats(d)).toEqual({ added: 1, removed: 1 });
    expect(sides(d)).toEqual({
      before: ["1", "2", "3", "4", "5", "6"],
      after: ["1", "3", "4", "2", "5", "6"],
    });
  });

  it("gives back both files exactly on random edits", () => {
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 50; round++) {
      const before = Array.from({ length: Math.floor(rnd() * 30) }, () => String(Math.floor(rnd() * 6)));
      const after = before.flatMap((l) =>
        rnd() < 0.2 ? [] : rnd() < 0.2 ? [l, String(Math.floor(rnd() * 6))] : [l],
      );
      const d = diffLines(before.join("\n"), after.join("\n"));
      expect(sides(d)).toEqual({ before, after });
      // Minimal: the unchanged lines are as many as the longest common subsequence.
      const lcs = (x: string[], y: string[]) => {
        const t = Array.from({ length: x.length + 1 }, () => new Array<number>(y.length + 1).fill(0));
        for (let i = x.length - 1; i >= 0; i--)
          for (let j = y.length - 1; j >= 0; j--)
            t[i]![j] = x[i] === y[j] ? t[i + 1]![j + 1]! + 1 : Math.max(t[i + 1]![j]!, t[i]![j + 1]!);
        return t[0]![0]!;
      };
      expect(d.filter((l) => l.type === "same")).toHaveLength(lcs(before, after));
    }
  });

  it("past its time the middle is replaced whole, still exact, keeping the common start and end", () => {
    const before = ["a", ...Array.from({ length: 300 }, (_, i) => `x${i}`), "z"];
    const after = ["a", ...Array.from({ length: 300 }, (_, i) => (i % 2 ? `x${i}` : `y${i}`)), "z"];
    const d = diffLines(before.join("\n"), after.join("\n"), { timeoutMs: 0 });
    expect(sides(d)).toEqual({ before, after });
    expect(d[0]).toEqual({ type: "same", text: "a", oldLine: 1, newLine: 1 });
    expect(d.at(-1)).toEqual({ type: "same", text: "z", oldLine: 302, newLine: 302 });
    // The middle (x0 to x298, x299 being common with z) is replaced whole; in time, only the even lines.
    expect(diffStats(d)).toEqual({ added: 299, removed: 299 });
    expect(diffStats(diffLines(before.join("\n"), after.join("\n")))).toEqual({ added: 150, removed: 150 });
  });

  it("marks the words that changed inside a changed line, each side its own", () => {
    const d = diffLines("const a = 1;\nkeep\n", "const b = 1;\nkeep\n");
    const changed = d.filter((l) => l.type !== "same");
    const words = (l: DiffLine) => (l.type === "same" ? [] : (l.words ?? []));
    expect(
      changed.map((l) =>
        words(l)
          .filter((w) => w.changed)
          .map((w) => w.text),
      ),
    ).toEqual([["a"], ["b"]]);
    // Each line is its words put together again.
    for (const l of changed)
      expect(
        words(l)
          .map((w) => w.text)
          .join(""),
      ).toBe(l.text);
  });

  it("marks no words once either file is over the limit", () => {
    const long = `${"x".repeat(50)}\n`;
    const d = diffLines(`${long}a b\n`, `${long}a c\n`, { wordLimit: 40 });
    expect(d.filter((l) => l.type !== "same").map((l) => "words" in l)).toEqual([false, false]);
    expect(diffLines("a b\n", "a c\n").find((l) => l.type === "added")).toHaveProperty("words");
  });

  it("splitLines ignores the final newline and reads CRLF", () => {
    expect(splitLines("")).toEqual([]);
    expect(splitLines("a\r\nb\r\n")).toEqual(["a", "b"]);
    expect(splitLines("a\n\n")).toEqual(["a", ""]);
  });
});

describe("foldUnchanged", () => {
  it("folds unchanged stretches beyond the context around changes", () => {
    const before = Array.from({ length: 20 }, (_, i) => `l${i}`);
    const after = [...before];
    after[10] = "changed";
    const rows = foldUnchanged(diffLines(before.join("\n"), after.join("\n")), 2);
    expect(rows.map((r) => (r.type === "skip" ? `skip ${r.count}` : r.text))).toEqual([
      "skip 8",
      "l8",
      "l9",
      "l10",
      "changed",
      "l11",
      "l12",
      "skip 7",
    ]);
    // One unchanged line is shown, not folded.
    const short = foldUnchanged(diffLines("a\nb\nc\nd\ne", "a\nb\nc\nd\nE"), 3);
    expect(short.map((r) => (r.type === "skip" ? `skip ${r.count}` : r.text))).toEqual([
      "a",
      "b",
      "c",
      "d",
      "e",
      "E",
    ]);
  });
});
