import { diffArrays, diffWordsWithSpace } from "diff";
import { WORD_DIFF_MAX_CHARS } from "@/lib/constants";

// The line diff of the all-changes dialog and the file history, by jsdiff (Myers' algorithm: the
// unchanged lines are a longest common subsequence), with the words that changed inside each
// changed line. Pure and client-safe.

/** A piece of a changed line: `changed` when these characters are not on the other side. */
export type WordPart = { text: string; changed: boolean };

export type DiffLine =
  | { type: "same"; text: string; oldLine: number; newLine: number }
  | { type: "removed"; text: string; oldLine: number; words?: WordPart[] }
  | { type: "added"; text: string; newLine: number; words?: WordPart[] };

/**
 * How long jsdiff may look for the shortest diff of one file (ms). Past it, the lines between
 * the common start and end are shown removed then added: still exact, just not minimal.
 */
export const DIFF_TIMEOUT_MS = 1000;

/** A file's lines; a final newline does not make an empty last line, and "" has no lines. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/**
 * The lines of `after` compared with `before`: unchanged, removed (old side) and added (new side),
 * in order; a changed line reads "old, then new". Changed lines carry their word changes unless
 * either file is longer than `wordLimit` characters.
 */
export function diffLines(
  before: string,
  after: string,
  { timeoutMs = DIFF_TIMEOUT_MS, wordLimit = WORD_DIFF_MAX_CHARS } = {},
): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  // The common start and end are taken off first: jsdiff then compares only the middle, and a
  // middle it gives up on still keeps them.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const middle = diffArrays(midA, midB, { timeout: timeoutMs }) ?? [
    { value: midA, removed: true, added: false, count: midA.length },
    { value: midB, removed: false, added: true, count: midB.length },
  ];
  const changes = [
    { value: a.slice(0, start), removed: false, added: false },
    ...middle,
    { value: a.slice(endA), removed: false, added: false },
  ];
  const out: DiffLine[] = [];
  let oldLine = 1;
  let newLine = 1;
  for (const change of changes) {
    for (const text of change.value) {
      if (change.removed) out.push({ type: "removed", text, oldLine: oldLine++ });
      else if (change.added) out.push({ type: "added", text, newLine: newLine++ });
      else out.push({ type: "same", text, oldLine: oldLine++, newLine: newLine++ });
    }
  }
  if (before.length <= wordLimit && after.length <= wordLimit) markWordChanges(out);
  return out;
}

/**
 * Pairs each run of removed lines with the added run after it, line by line, and marks the words
 * that differ within each pair (the rest of a longer run stays whole: nothing to compare it with).
 */
function markWordChanges(lines: DiffLine[]): void {
  for (let i = 0; i < lines.length; ) {
    if (lines[i]!.type !== "removed") {
      i++;
      continue;
    }
    let removedEnd = i;
    while (removedEnd < lines.length && lines[removedEnd]!.type === "removed") removedEnd++;
    let addedEnd = removedEnd;
    while (addedEnd < lines.length && lines[addedEnd]!.type === "added") addedEnd++;
    const pairs = Math.min(removedEnd - i, addedEnd - removedEnd);
    for (let k = 0; k < pairs; k++) {
      const removed = lines[i + k] as Extract<DiffLine, { type: "removed" }>;
      const added = lines[removedEnd + k] as Extract<DiffLine, { type: "added" }>;
      const parts = diffWordsWithSpace(removed.text, added.text);
      removed.words = parts.filter((p) => !p.added).map((p) => ({ text: p.value, changed: p.removed }));
      added.words = parts.filter((p) => !p.removed).map((p) => ({ text: p.value, changed: p.added }));
    }
    i = addedEnd;
  }
}

export type DiffRow = DiffLine | { type: "skip"; count: number };

/** The diff with long unchanged stretches folded, keeping `context` lines around every change. */
export function foldUnchanged(lines: DiffLine[], context = 3): DiffRow[] {
  const keep = new Array<boolean>(lines.length).fill(false);
  lines.forEach((l, i) => {
    if (l.type === "same") return;
    for (let k = Math.max(0, i - context); k <= Math.min(lines.length - 1, i + context); k++) keep[k] = true;
  });
  const out: DiffRow[] = [];
  let skipped = 0;
  // A single unchanged line is shown rather than folded: the fold would take as much room.
  const flush = (end: number) => {
    if (skipped === 1) out.push(lines[end - 1]!);
    else if (skipped > 1) out.push({ type: "skip", count: skipped });
    skipped = 0;
  };
  lines.forEach((l, i) => {
    if (keep[i]) {
      flush(i);
      out.push(l);
    } else skipped++;
  });
  flush(lines.length);
  return out;
}

/** Lines added and removed. */
export function diffStats(lines: DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of lines) {
    if (l.type === "added") added++;
    else if (l.type === "removed") removed++;
  }
  return { added, removed };
}
