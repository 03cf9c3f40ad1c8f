import { describe, expect, it } from "vitest";
import { schemaOfFields } from "@/lib/csv/fields-schema";
import { mappableFields } from "@/lib/csv/mapping";
import { previewCsv } from "@/lib/csv/preview";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("the wizard's preview of a CSV file", () => {
  it("reads the headers and the first 5 rows with a value, as the importer names them", () => {
    const rows = Array.from({ length: 8 }, (_, i) => `Task ${i},${i}`);
    const p = previewCsv(bytes(["\uFEFFTitle, Points", "", ",", ...rows].join("\n")), true);
    expect(p).toEqual({
      ok: true,
      headers: ["Title", " Points"],
      rows: [0, 1, 2, 3, 4].map((i) => ({ Title: `Task ${i}`, " Points": String(i) })),
    });
  });

  it("says the spec's words for an empty file, one without rows, and one it cannot read", () => {
    for (const t of ["", "  \n\n", "\uFEFF"])
      expect(previewCsv(bytes(t), true)).toEqual({ ok: false, problem: "csvEmpty" });
    for (const t of ["Title,Done", "Title,Done\n,\n , \n"]) {
      expect(previewCsv(bytes(t), true)).toEqual({ ok: false, problem: "csvNoRows" });
    }
    expect(previewCsv(new Uint8Array([0x54, 0x0a, 0xff, 0xfe]), true)).toEqual({
      ok: false,
      problem: "csvParseFailed",
    });
    expect(previewCsv(bytes('Title\n"never closed\n'), true)).toEqual({
      ok: false,
      problem: "csvParseFailed",
    });
    expect(previewCsv(bytes("Title\u0000\nx"), true)).toEqual({ ok: false, problem: "csvParseFailed" });
  });

  it("reads the start of a longer file: a character or a row cut at the end is no error", () => {
    const text = bytes("Title\nCafé one\nCafé two\nCafé th");
    // Cut inside the é of the last row.
    const cut = text.slice(0, text.length - 4);
    expect(previewCsv(cut, false)).toEqual({
      ok: true,
      headers: ["Title"],
      rows: [{ Title: "Café one" }, { Title: "Café two" }],
    });
  });
});

describe("the entity's schema rebuilt from the panel's fields", () => {
  it("gives the mapping the same fields and types as the schema file", () => {
    const field = (name: string, o: Partial<Parameters<typeof schemaOfFields>[0][number]> = {}) => ({
      name,
      type: "string",
      format: null,
      enum: null,
      items: null,
      itemEnum: null,
      required: false,
      builtIn: false,
      ...o,
    });
    const schema = schemaOfFields([
      field("id", { builtIn: true }),
      field("title"),
      field("due", { format: "date-time" }),
      field("points", { type: "number" }),
      field("tags", { type: "array", items: "string", itemEnum: ["a", "b"] }),
      field("status", { enum: ["open", "done"] }),
      field("meta", { type: "object" }),
      field("meta.x"),
      field("coverImage"),
    ]);
    expect(mappableFields(schema).map((f) => `${f.name}:${f.dataType}`)).toEqual([
      "title:text",
      "due:datetime",
      "points:number",
      "tags:multiselect",
      "status:select",
      "meta:json",
      "coverImage:image",
      "id:text",
      "creatorId:text",
    ]);
  });
});
