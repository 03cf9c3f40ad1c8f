// A line diff for the all-changes diff dialog: the longest
// common subsequence of the two files' lines, after the common start and end are taken off.
// Pure and client-safe. Files are at most SPACE_FILE_MAX_BYTES, so the quadratic table is capped:
// past DIFF_MAX_CELLS the middle is shown as removed then added (still correct, just not minimal).

export type DiffLine =
  | { type: "same"; text: string; oldLine: number; newLine: number }
  | { type: "removed"; text: string; oldLine: number }
  | { type: "added"; text: string; newLine: number };

/** Lines compared pairwise at most (the LCS table's cells): about 16 MB of memory. */
export const DIFF_MAX_CELLS = 4_000_000;

/** A file's lines; a final newline does not make an empty last line, and "" has no lines. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** The lines of `after` compared with `before`: unchanged, removed (old side) and added (new side), in order. */
export function diffLines(before: string, after: string, maxCells = DIFF_MAX_CELLS): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const out: DiffLine[] = [];
  for (let i = 0; i < start; i++) out.push({ type: "same", text: a[i]!, oldLine: i + 1, newLine: i + 1 });

  const n = endA - start;
  const m = endB - start;
  if (n > 0 && m > 0 && (n + 1) * (m + 1) <= maxCells) {
    // lcs[i][j] = length of the LCS of a[start+i..endA) and b[start+j..endB), row-major.
    const w = m + 1;
    const lcs = new Uint32Array((n + 1) * w);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * w + j] =
          a[start + i] === b[start + j]
            ? lcs[(i + 1) * w + j + 1]! + 1
            : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[start + i] === b[start + j]) {
        out.push({ type: "same", text: a[start + i]!, oldLine: start + i + 1, newLine: start + j + 1 });
        i++;
        j++;
      } else if (j === m || (i < n && lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!)) {
        // At a tie the removal comes first: a changed line reads as "old, then new".
        out.push({ type: "removed", text: a[start + i]!, oldLine: start + i + 1 });
        i++;
      } else {
        out.push({ type: "added", text: b[start + j]!, newLine: start + j + 1 });
        j++;
      }
    }
  } else {
    for (let i = start; i < endA; i++) out.push({ type: "removed", text: a[i]!, oldLine: i + 1 });
    for (let j = start; j < endB; j++) out.push({ type: "added", text: b[j]!, newLine: j + 1 });
  }

  for (let k = 0; endA + k < a.length; k++) {
    out.push({ type: "same", text: a[endA + k]!, oldLine: endA + k + 1, newLine: endB + k + 1 });
  }
  return out;
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
