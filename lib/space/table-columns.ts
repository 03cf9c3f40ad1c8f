import type { z } from "zod";
import {
  TABLE_COLUMN_MAX_WIDTH,
  TABLE_COLUMN_MIN_WIDTH,
  TABLE_CREATED_AT_WIDTH,
  TABLE_FIELD_WIDTH,
  TABLE_MULTISELECT_WIDTH,
} from "@/lib/constants";
import type { EntityField as EntityFieldSchema } from "./schemas";

// The Database panel's table: which column each of an entity's fields makes, what kind of cell it
// holds, whether it can be edited, and how wide it starts. Pure and client-safe (the table runs in
// the browser); the fields are those GET /api/apps/{appId}/entities answers (lib/space/entities.ts).

type EntityField = z.infer<typeof EntityFieldSchema>;

export const COLUMN_KINDS = [
  "image",
  "datetime",
  "boolean",
  "select",
  "text",
  "number",
  "multiselect",
  "json",
] as const;
export type ColumnKind = (typeof COLUMN_KINDS)[number];

export type SelectOption = { value: string; label: string; backgroundColor: string };

export type TableColumn = {
  /** The record's field the column shows (a top-level one). */
  field: string;
  kind: ColumnKind;
  /** The fields the table keeps itself: id, creatorId, createdAt. */
  readOnly: boolean;
  required: boolean;
  /** A select's or multiselect's options, in the schema's order; null for the other kinds. */
  options: SelectOption[] | null;
  /** A text's most characters, from the schema's maxLength; null when it sets none. */
  maxLength: number | null;
  width: number;
  minWidth: number;
  maxWidth: number;
};

/**
 * Backgrounds of select options, by the option's position (a fixed palette, so an option keeps its
 * colour from one render to the next). Light tints: the option's text stays dark on them in both
 * themes, at a contrast above 4.5:1.
 */
export const OPTION_COLOURS = [
  "#dbeafe",
  "#dcfce7",
  "#fef9c3",
  "#fee2e2",
  "#f3e8ff",
  "#ffedd5",
  "#cffafe",
  "#fce7f3",
  "#e0e7ff",
  "#f1f5f9",
] as const;

const READ_ONLY = new Set(["id", "creatorId", "createdAt"]);

const optionsOf = (values: string[]): SelectOption[] =>
  values.map((value, i) => ({
    value,
    label: value,
    backgroundColor: OPTION_COLOURS[i % OPTION_COLOURS.length]!,
  }));

/** The field's one JSON type, "null" aside ("string or null" is a string); null for real unions. */
function singleType(type: string): string | null {
  const types = type.split(" or ").filter((t) => t !== "null");
  return types.length === 1 ? types[0]! : null;
}

/** The kind of cell a field makes. */
export function columnKind(
  field: Pick<EntityField, "name" | "type" | "format" | "enum" | "itemEnum">,
): ColumnKind {
  const type = field.enum ? "enum" : singleType(field.type);
  // A list or an object named like an image is still a list or an object: a thumbnail shows one URL.
  if (field.name.toLowerCase().includes("image") && type !== "array" && type !== "object") return "image";
  if (field.format === "date-time") return "datetime";
  switch (type) {
    case "boolean":
      return "boolean";
    case "enum":
      return "select";
    case "number":
    case "integer":
      return "number";
    case "string":
      return "text";
    case "array":
      return field.itemEnum ? "multiselect" : "json";
    // Objects, real unions and fields without a type hold any JSON.
    default:
      return "json";
  }
}

/**
 * The table's columns in the order of the entity's fields (the built-in ones first, as the entity
 * lists them). Nested fields (dotted names) have no column: their object shows in its own json
 * cell. On the User entity the row's id stands in place of creatorId, which it has not.
 */
export function tableColumns(entity: string, fields: EntityField[]): TableColumn[] {
  return fields
    .filter((f) => !f.name.includes("."))
    .filter((f) => !(entity === "User" && f.name === "creatorId"))
    .map((f) => {
      const kind = columnKind(f);
      const options =
        kind === "select"
          ? optionsOf(f.enum ?? [])
          : kind === "multiselect"
            ? optionsOf(f.itemEnum ?? [])
            : null;
      return {
        field: f.name,
        kind,
        readOnly: f.builtIn || READ_ONLY.has(f.name),
        required: f.required,
        options,
        maxLength: kind === "text" || kind === "image" ? (f.maxLength ?? null) : null,
        width:
          f.name === "createdAt"
            ? TABLE_CREATED_AT_WIDTH
            : kind === "multiselect"
              ? TABLE_MULTISELECT_WIDTH
              : TABLE_FIELD_WIDTH,
        minWidth: TABLE_COLUMN_MIN_WIDTH,
        maxWidth: TABLE_COLUMN_MAX_WIDTH,
      };
    });
}
