import Papa from "papaparse";

// CSV files people open in a spreadsheet. A cell whose text starts with =, +, -, @, a tab or a
// carriage return would be run as a formula there (=HYPERLINK(...) sends the reader's data away),
// so such a cell gets a leading apostrophe and is quoted. Papa's own escapeFormulae pattern,
// /^[=+\-@\t\r].*$/, misses a cell that holds a line break (`.` and `$` stop at the first line),
// so the check here looks at the first character only, whatever follows.

/** A cell a spreadsheet would take for a formula: what it starts with is enough. */
export const FORMULA_START = /^[=+\-@\t\r]/;

/** The CSV text of a header row and its data rows, every cell (the header's too) escaped as above. */
export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return Papa.unparse(
    { fields: [...header], data: rows.map((r) => [...r]) },
    { escapeFormulae: FORMULA_START },
  );
}
