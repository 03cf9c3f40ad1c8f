import { z } from "zod";
import {
  CSV_HEADER_MAX,
  CSV_MAPPING_HEADERS_MAX,
  CSV_PREVIEW_CELL_MAX,
  CSV_PREVIEW_ROWS,
  ENTITY_NAME,
} from "@/lib/constants";
import { messages } from "@/lib/messages";
import { COLUMN_KINDS, type ColumnKind } from "@/lib/space/table-columns";
import { isStorableJson, storableString } from "@/lib/storable-text";

// Shapes of the CSV import's mapping step, shared by the route, the wizard and the tests.

/** How a column's values are read: the table's column types (lib/space/table-columns.ts). */
export const CSV_DATA_TYPES = COLUMN_KINDS;
export type CsvDataType = ColumnKind;

/**
 * What separates the values of a multiselect cell, as the characters themselves: comma,
 * semicolon, pipe, line break, tab.
 */
export const SPLIT_CHARACTERS = [",", ";", "|", "\n", "\t"] as const;
export type SplitCharacter = (typeof SPLIT_CHARACTERS)[number];

const Header = storableString().max(CSV_HEADER_MAX);
const Cell = z.union([storableString().max(CSV_PREVIEW_CELL_MAX), z.number(), z.boolean(), z.null()]);

/** POST /api/csv/generateMapping: the file's headers, its first rows, the entity and its schema. */
export const GenerateMappingBody = z
  .object({
    headers: z
      .array(Header)
      .min(1)
      .max(CSV_MAPPING_HEADERS_MAX)
      .refine((h) => new Set(h).size === h.length, { message: messages.csvMappingHeadersRepeat }),
    /** The preview's rows, each by header (as a CSV parser with headers gives them). */
    previewData: z.array(z.record(Header, Cell)).max(CSV_PREVIEW_ROWS).default([]),
    /** The entity's JSON schema: its `properties` are the fields a column may fill. */
    schema: z
      .looseObject({ properties: z.record(storableString().max(CSV_HEADER_MAX), z.unknown()).default({}) })
      .refine(isStorableJson, { message: messages.textNotStorable }),
    entityName: storableString().regex(ENTITY_NAME),
  })
  .meta({
    examples: [
      {
        headers: ["Title", "Done", "Tags"],
        previewData: [{ Title: "Buy milk", Done: "true", Tags: "home;errands" }],
        schema: {
          type: "object",
          properties: {
            title: { type: "string" },
            done: { type: "boolean" },
            tags: { type: "array", items: { type: "string", enum: ["home", "work", "errands"] } },
          },
        },
        entityName: "Task",
      },
    ],
  });
export type GenerateMappingBody = z.infer<typeof GenerateMappingBody>;

/** One column: the field it fills (null: ignored), how its values are read and split. */
export const CsvMapping = z.object({
  csvHeader: z.string(),
  schemaField: z.string().nullable(),
  dataType: z.enum(CSV_DATA_TYPES),
  /** For multiselect columns only; null for the others. */
  splitCharacter: z.enum(SPLIT_CHARACTERS).nullable(),
});
export type CsvMapping = z.infer<typeof CsvMapping>;

/**
 * A mapping of every header, in the file's order. `fallback` is true when the model gave none
 * that could be used and the names were matched instead; `message` then says so to the builder.
 */
export const GenerateMappingAnswer = z.object({
  mappings: z.array(CsvMapping),
  fallback: z.boolean(),
  message: z.string().optional(),
});
export type GenerateMappingAnswer = z.infer<typeof GenerateMappingAnswer>;
