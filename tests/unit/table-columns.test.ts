import { describe, expect, it } from "vitest";
import { entityView } from "@/lib/space/entities";
import { columnKind, OPTION_COLOURS, tableColumns } from "@/lib/space/table-columns";

// The Database table's columns from an entity's schema, as the entity list reads it: their kinds,
// read-only built-in fields, select options with their colours, and starting widths.

const fieldsOf = (schema: object) =>
  entityView({ path: "entities/Task.json", content: JSON.stringify(schema) })!.fields;

const SCHEMA = {
  type: "object",
  properties: {
    title: { type: "string" },
    coverImage: { type: "string" },
    dueAt: { type: "string", format: "date-time" },
    done: { type: "boolean" },
    priority: { type: "string", enum: ["low", "high"] },
    points: { type: "integer" },
    cost: { type: "number" },
    tags: { type: "array", items: { type: "string", enum: ["home", "work"] } },
    notes: { type: "array", items: { type: "string" } },
    address: { type: "object", properties: { city: { type: "string" } } },
    nickname: { type: ["string", "null"] },
    anything: {},
  },
  required: ["title"],
};

describe("the table's columns", () => {
  const columns = tableColumns("Task", fieldsOf(SCHEMA));
  const by = (field: string) => columns.find((c) => c.field === field)!;

  it("follow the entity's fields, built-in ones first; nested fields have none", () => {
    expect(columns.map((c) => c.field)).toEqual([
      "id",
      "creatorId",
      "createdAt",
      "title",
      "coverImage",
      "dueAt",
      "done",
      "priority",
      "points",
      "cost",
      "tags",
      "notes",
      "address",
      "nickname",
      "anything",
    ]);
  });

  it("have the spec's kinds", () => {
    expect(Object.fromEntries(columns.map((c) => [c.field, c.kind]))).toEqual({
      id: "text",
      creatorId: "text",
      createdAt: "datetime",
      title: "text",
      coverImage: "image",
      dueAt: "datetime",
      done: "boolean",
      priority: "select",
      points: "number",
      cost: "number",
      tags: "multiselect",
      notes: "json",
      address: "json",
      nickname: "text",
      anything: "json",
    });
  });

  it("make id, creatorId and createdAt read-only, and only them", () => {
    expect(columns.filter((c) => c.readOnly).map((c) => c.field)).toEqual(["id", "creatorId", "createdAt"]);
    expect(by("title").required).toBe(true);
    expect(by("done").required).toBe(false);
  });

  it("give select and multiselect options a label and a background from the fixed palette", () => {
    expect(by("priority").options).toEqual([
      { value: "low", label: "low", backgroundColor: OPTION_COLOURS[0] },
      { value: "high", label: "high", backgroundColor: OPTION_COLOURS[1] },
    ]);
    expect(by("tags").options?.map((o) => o.label)).toEqual(["home", "work"]);
    expect(by("title").options).toBeNull();
    const many = tableColumns("Task", fieldsOf({ properties: { n: { enum: [...Array(12).keys()] } } }));
    const colours = many.at(-1)!.options!.map((o) => o.backgroundColor);
    expect(colours[10]).toBe(colours[0]);
    expect(colours.every((c) => /^#[0-9a-f]{6}$/.test(c))).toBe(true);
  });

  it("start at 200 for a multiselect, 208 for Created At, 100 otherwise; resizable from 50 to 400", () => {
    expect(by("tags").width).toBe(200);
    expect(by("createdAt").width).toBe(208);
    expect(
      new Set(columns.filter((c) => !["tags", "createdAt"].includes(c.field)).map((c) => c.width)),
    ).toEqual(new Set([100]));
    expect(columns.every((c) => c.minWidth === 50 && c.maxWidth === 400)).toBe(true);
  });

  it("on the User entity show the id in place of creatorId", () => {
    const user = fieldsOf({ properties: { email: { type: "string" } } });
    expect(tableColumns("User", user).map((c) => c.field)).toEqual(["id", "createdAt", "email"]);
  });
});

describe("a field's kind", () => {
  const field = { type: "string", format: null, enum: null, itemEnum: null };
  it("is image for a text field whose name contains image, in any case, but not for a list of them", () => {
    expect(columnKind({ ...field, name: "image" })).toBe("image");
    expect(columnKind({ ...field, name: "profileImageUrl" })).toBe("image");
    expect(columnKind({ ...field, name: "images", type: "array" })).toBe("json");
  });
  it("is json for a union of types", () => {
    expect(columnKind({ ...field, name: "v", type: "string or number" })).toBe("json");
  });
});

describe("a text column's most characters", () => {
  it("comes from the schema's maxLength, for text only; none when the schema sets none or a bad one", () => {
    const columns = tableColumns(
      "Task",
      fieldsOf({
        type: "object",
        properties: {
          title: { type: "string", maxLength: 80 },
          notes: { type: "string" },
          odd: { type: "string", maxLength: "ten" },
          count: { type: "integer", maxLength: 3 },
        },
      }),
    );
    const max = Object.fromEntries(columns.map((c) => [c.field, c.maxLength]));
    expect(max).toEqual({
      id: null,
      creatorId: null,
      createdAt: null,
      title: 80,
      notes: null,
      odd: null,
      count: null,
    });
  });
});
