import { type CsvDataType, type CsvMapping, SPLIT_CHARACTERS, type SplitCharacter } from "./schemas";

// The mapping of a CSV file's columns to an entity's fields, without the model: the fields a
// column may fill and how each reads its values, the basic case-insensitive name match, and the
// check every mapping the model suggests goes through. Pure (client-safe).

/** The first line of the mapping request's instructions: the local demo model recognises it. */
export const CSV_MAPPING_PROMPT_MARKER =
  "You map the columns of a CSV file to the fields of a database entity.";

/** A field a column may fill, and how its values are read. */
export type MappableField = { name: string; dataType: CsvDataType };

/** Built-in fields a column may fill too (the wizard asks the builder to confirm these). */
const WRITABLE_BUILT_INS = ["id", "creatorId"] as const;

/** The split character of a multiselect column unless one is chosen. */
export const DEFAULT_SPLIT_CHARACTER: SplitCharacter = ",";

const asRecord = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/**
 * How a field's values are read, from its JSON schema: image (a text field whose name says
 * image), datetime, boolean, select (enum), number, multiselect (an array of enum), json (other
 * arrays and objects), else text.
 */
export function dataTypeOf(name: string, property: unknown): CsvDataType {
  const p = asRecord(property) ?? {};
  const types = Array.isArray(p.type) ? p.type : [p.type];
  const has = (t: string) => types.includes(t);
  if (Array.isArray(p.enum)) return "select";
  if (has("array")) return Array.isArray(asRecord(p.items)?.enum) ? "multiselect" : "json";
  if (has("object")) return "json";
  if (has("boolean")) return "boolean";
  if (has("number") || has("integer")) return "number";
  if (p.format === "date-time" || p.format === "date") return "datetime";
  if (/image/i.test(name)) return "image";
  return "text";
}

/** The fields of an entity's JSON schema a column may fill: its properties, then id and creatorId. */
export function mappableFields(
  schema: { properties?: Record<string, unknown> },
  max = Infinity,
): MappableField[] {
  const fields = Object.entries(schema.properties ?? {})
    .slice(0, max)
    .map(([name, property]) => ({ name, dataType: dataTypeOf(name, property) }));
  for (const name of WRITABLE_BUILT_INS) {
    if (!fields.some((f) => f.name === name)) fields.push({ name, dataType: "text" });
  }
  return fields;
}

const key = (s: string) => s.trim().toLowerCase();

function mapped(csvHeader: string, field: MappableField, split?: SplitCharacter | null): CsvMapping {
  return {
    csvHeader,
    schemaField: field.name,
    dataType: field.dataType,
    splitCharacter: field.dataType === "multiselect" ? (split ?? DEFAULT_SPLIT_CHARACTER) : null,
  };
}

const unmapped = (csvHeader: string): CsvMapping => ({
  csvHeader,
  schemaField: null,
  dataType: "text",
  splitCharacter: null,
});

/**
 * The basic mapping: each header fills the field of the same name, case-insensitively (and
 * trimmed); headers with no such field are left unmapped. A field is filled by one column at most:
 * the first that names it.
 */
export function basicMapping(headers: readonly string[], fields: readonly MappableField[]): CsvMapping[] {
  const byKey = new Map<string, MappableField>();
  for (const f of fields) if (!byKey.has(key(f.name))) byKey.set(key(f.name), f);
  const taken = new Set<string>();
  return headers.map((header) => {
    const field = byKey.get(key(header));
    if (!field || taken.has(field.name)) return unmapped(header);
    taken.add(field.name);
    return mapped(header, field);
  });
}

// Names models use for the split characters.
const SPLIT_NAMES: Record<string, SplitCharacter> = {
  comma: ",",
  semicolon: ";",
  pipe: "|",
  "line break": "\n",
  linebreak: "\n",
  newline: "\n",
  "new line": "\n",
  "\\n": "\n",
  tab: "\t",
  "\\t": "\t",
};

function splitCharacterFrom(v: unknown): SplitCharacter | null {
  if (typeof v !== "string") return null;
  if ((SPLIT_CHARACTERS as readonly string[]).includes(v)) return v as SplitCharacter;
  return SPLIT_NAMES[v.trim().toLowerCase()] ?? null;
}

/**
 * The model's suggestion made safe: one entry per header, in the file's order; a field that is
 * not the entity's, or that an earlier column already fills, leaves the column unmapped; a mapped
 * column reads its values as its field's type says (the model cannot change the schema); a
 * multiselect column splits on the character the model chose when it is one of the five, else on
 * a comma. Headers the model left out are unmapped. Null when the answer names none of the headers:
 * nothing of it can be used.
 */
export function checkedMapping(
  suggestion: unknown,
  headers: readonly string[],
  fields: readonly MappableField[],
): CsvMapping[] | null {
  const entries = Array.isArray(suggestion) ? suggestion : asRecord(suggestion)?.mappings;
  if (!Array.isArray(entries)) return null;
  const byHeader = new Map<string, Record<string, unknown>>();
  for (const raw of entries) {
    const e = asRecord(raw);
    if (e && typeof e.csvHeader === "string" && headers.includes(e.csvHeader) && !byHeader.has(e.csvHeader)) {
      byHeader.set(e.csvHeader, e);
    }
  }
  if (byHeader.size === 0) return null;
  const byName = new Map(fields.map((f) => [f.name, f]));
  const byKey = new Map<string, MappableField>();
  for (const f of fields) if (!byKey.has(key(f.name))) byKey.set(key(f.name), f);
  const taken = new Set<string>();
  return headers.map((header) => {
    const e = byHeader.get(header);
    const name = typeof e?.schemaField === "string" ? e.schemaField : null;
    // The exact name first; a field named with other case is still that field.
    const field = name === null ? undefined : (byName.get(name) ?? byKey.get(key(name)));
    if (!field || taken.has(field.name)) return unmapped(header);
    taken.add(field.name);
    return mapped(header, field, splitCharacterFrom(e?.splitCharacter));
  });
}
