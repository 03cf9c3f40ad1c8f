import type { FilledMessage } from "@/lib/errors";
import { DEFAULT_SPLIT_CHARACTER } from "./mapping";
import type { CsvDataType, CsvMapping } from "./schemas";

// One CSV row made into a record's fields by the column mapping. Pure (client-safe).

/** Fields a column may not fill on import: the record's own, set by the database and the importer. */
const NOT_IMPORTED = new Set(["id", "creatorId", "createdAt", "updatedAt"]);

/**
 * The columns that fill a field: mapped, not to a built-in field (a column mapped to id or
 * creatorId is ignored: the database gives each record its id, the importing builder is its
 * creator), the first column of a field winning.
 */
export function importedColumns(mappings: CsvMapping[]): CsvMapping[] {
  const seen = new Set<string>();
  return mappings.filter((m) => {
    if (!m.schemaField || NOT_IMPORTED.has(m.schemaField) || seen.has(m.schemaField)) return false;
    seen.add(m.schemaField);
    return true;
  });
}

const TRUE = new Set(["true", "yes", "y", "1"]);
const FALSE = new Set(["false", "no", "n", "0"]);
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

type Converted = { ok: true; value: unknown } | { ok: false };

function convert(text: string, m: CsvMapping): Converted {
  const type: CsvDataType = m.dataType;
  const t = text.trim();
  switch (type) {
    case "number": {
      const n = Number(t.replace(/,/g, ""));
      return Number.isFinite(n) ? { ok: true, value: n } : { ok: false };
    }
    case "boolean": {
      const k = t.toLowerCase();
      return TRUE.has(k)
        ? { ok: true, value: true }
        : FALSE.has(k)
          ? { ok: true, value: false }
          : { ok: false };
    }
    case "datetime": {
      if (DATE_ONLY.test(t)) return { ok: true, value: t };
      const ms = Date.parse(t);
      return Number.isNaN(ms) ? { ok: false } : { ok: true, value: new Date(ms).toISOString() };
    }
    case "multiselect":
      return {
        ok: true,
        value: text
          .split(m.splitCharacter ?? DEFAULT_SPLIT_CHARACTER)
          .map((s) => s.trim())
          .filter(Boolean),
      };
    case "json":
      try {
        return { ok: true, value: JSON.parse(t) };
      } catch {
        return { ok: false };
      }
    default:
      return { ok: true, value: text };
  }
}

/**
 * A row's fields by the mapping: blank cells leave their field out, unmapped columns are ignored.
 * A cell its column's type cannot read fails the row, with a reason naming the field.
 */
export function convertRow(
  row: Record<string, string>,
  columns: CsvMapping[],
): { fields: Record<string, unknown> } | { problem: FilledMessage } {
  const fields: Record<string, unknown> = {};
  for (const m of columns) {
    const text = row[m.csvHeader];
    if (text === undefined || text.trim() === "") continue;
    const c = convert(text, m);
    if (!c.ok) {
      return {
        problem: {
          key: "csvImportBadValue",
          vars: { field: m.schemaField!, value: text.slice(0, 100), type: m.dataType },
        },
      };
    }
    fields[m.schemaField!] = c.value;
  }
  return { fields };
}
