import Papa from "papaparse";
import { CSV_PREVIEW_ROWS } from "@/lib/constants";
import type { MessageKey } from "@/lib/messages";

// The wizard's first look at a CSV file, in the browser: its headers and first rows (the mapping
// step's preview and the model's sample), or why it cannot be imported, in the spec's words. Only
// the file's first bytes are read; the server checks the whole file again. Pure (client-safe).

export type CsvPreview =
  | { ok: true; headers: string[]; rows: Record<string, string>[] }
  | { ok: false; problem: Extract<MessageKey, "csvEmpty" | "csvNoRows" | "csvParseFailed"> };

/** How much of the file the preview reads: enough for a header and the first rows of any sane file. */
export const CSV_PREVIEW_BYTES = 1024 * 1024;

const hasValue = (row: Record<string, unknown>) =>
  Object.values(row).some((v) => String(v ?? "").trim() !== "");

/**
 * The headers and the first CSV_PREVIEW_ROWS rows with a value of `bytes`, the start of a file
 * (`whole`: the file's end is in it). Text that is not UTF-8, holds a NUL character, or that
 * the parser cannot read (an unclosed quote, no header) fails to parse.
 */
export function previewCsv(bytes: Uint8Array, whole: boolean): CsvPreview {
  let text: string;
  try {
    // `stream` while more follows: a character cut at the slice's end is not an error.
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: !whole });
  } catch {
    return { ok: false, problem: "csvParseFailed" };
  }
  text = text.replace(/^\uFEFF/, "");
  if (text.trim() === "") return { ok: false, problem: "csvEmpty" };
  if (text.includes("\u0000")) return { ok: false, problem: "csvParseFailed" };
  // A cut file ends mid-row: its last line is left out.
  if (!whole) text = text.slice(0, Math.max(text.lastIndexOf("\n"), 0));
  const parsed = Papa.parse<Record<string, string>>(text, {
    header: true,
    skipEmptyLines: "greedy",
    preview: 100,
  });
  const headers = (parsed.meta.fields ?? []).filter((h) => h !== "");
  const broken = parsed.errors.some((e) => e.type === "Quotes");
  if (broken || headers.length === 0) return { ok: false, problem: "csvParseFailed" };
  const rows = parsed.data.filter(hasValue);
  if (rows.length === 0) {
    // Only blank rows in the first hundred of a longer file: the server reads on.
    return parsed.data.length >= 100 ? { ok: true, headers, rows: [] } : { ok: false, problem: "csvNoRows" };
  }
  return { ok: true, headers, rows: rows.slice(0, CSV_PREVIEW_ROWS) };
}

/**
 * The number of data rows of a whole file (as the importer counts them: rows without a value skipped),
 * read a chunk at a time so a large file does not stop the page for long.
 */
export function countCsvRows(file: Blob): Promise<number> {
  return new Promise((resolve) => {
    let rows = 0;
    Papa.parse(file as File, {
      header: true,
      skipEmptyLines: "greedy",
      chunkSize: 2 * 1024 * 1024,
      chunk: (results) => {
        rows += (results.data as Record<string, unknown>[]).filter(hasValue).length;
      },
      complete: () => resolve(rows),
      error: () => resolve(rows),
    });
  });
}
