import { describe, expect, it } from "vitest";
import { basicMapping, checkedMapping, dataTypeOf, mappableFields } from "@/lib/csv/mapping";

const fields = mappableFields({
  properties: {
    name: { type: "string" },
    Email: { type: "string" },
    profile_image: { type: "string" },
    age: { type: "integer" },
    tags: { type: "array", items: { enum: ["a", "b"] } },
  },
});

describe("dataTypeOf: how a field's values are read, from its JSON schema", () => {
  it.each([
    ["coverImage", { type: "string" }, "image"],
    ["when", { type: "string", format: "date-time" }, "datetime"],
    ["done", { type: "boolean" }, "boolean"],
    ["status", { type: "string", enum: ["open", "closed"] }, "select"],
    ["title", { type: "string" }, "text"],
    ["price", { type: "number" }, "number"],
    ["count", { type: ["integer", "null"] }, "number"],
    ["labels", { type: "array", items: { type: "string", enum: ["x"] } }, "multiselect"],
    ["list", { type: "array", items: { type: "string" } }, "json"],
    ["meta", { type: "object", properties: {} }, "json"],
    ["odd", "not a schema", "text"],
  ])("%s %j is %s", (name, property, type) => {
    expect(dataTypeOf(name, property)).toBe(type);
  });
});

describe("mappableFields", () => {
  it("lists the schema's properties, then id and creatorId", () => {
    expect(fields.map((f) => f.name)).toEqual([
      "name",
      "Email",
      "profile_image",
      "age",
      "tags",
      "id",
      "creatorId",
    ]);
    expect(mappableFields({}).map((f) => f.name)).toEqual(["id", "creatorId"]);
  });
});

describe("basicMapping: the case-insensitive name match", () => {
  it("maps headers to fields of the same name whatever the case or outer spaces, one column per field", () => {
    expect(basicMapping(["NAME", "email ", "Tags", "Age", "name", "Phone", "ID"], fields)).toEqual([
      { csvHeader: "NAME", schemaField: "name", dataType: "text", splitCharacter: null },
      { csvHeader: "email ", schemaField: "Email", dataType: "text", splitCharacter: null },
      { csvHeader: "Tags", schemaField: "tags", dataType: "multiselect", splitCharacter: "," },
      { csvHeader: "Age", schemaField: "age", dataType: "number", splitCharacter: null },
      { csvHeader: "name", schemaField: null, dataType: "text", splitCharacter: null },
      { csvHeader: "Phone", schemaField: null, dataType: "text", splitCharacter: null },
      { csvHeader: "ID", schemaField: "id", dataType: "text", splitCharacter: null },
    ]);
  });

  it("does not map by likeness: that is the model's part", () => {
    expect(basicMapping(["Full name", "E-mail"], fields).every((m) => m.schemaField === null)).toBe(true);
  });
});

describe("checkedMapping: the model's answer made safe", () => {
  it("is null when nothing of it names a header", () => {
    expect(checkedMapping(null, ["a"], fields)).toBeNull();
    expect(checkedMapping({ mappings: "x" }, ["a"], fields)).toBeNull();
    expect(checkedMapping({ mappings: [{ csvHeader: "b", schemaField: "name" }] }, ["a"], fields)).toBeNull();
  });

  it("keeps the first entry of a header, the split characters as characters or names", () => {
    const out = checkedMapping(
      [
        { csvHeader: "t", schemaField: "tags", splitCharacter: "tab" },
        { csvHeader: "t", schemaField: "name" },
        { csvHeader: "u", schemaField: "name", splitCharacter: "\n" },
      ],
      ["t", "u"],
      fields,
    );
    expect(out).toEqual([
      { csvHeader: "t", schemaField: "tags", dataType: "multiselect", splitCharacter: "\t" },
      { csvHeader: "u", schemaField: "name", dataType: "text", splitCharacter: null },
    ]);
  });
});
