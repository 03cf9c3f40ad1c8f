import "server-only";
import Papa from "papaparse";
import { z } from "zod";
import type { App } from "@/db/schema";
import { importedColumns } from "@/lib/csv/convert-row";
import { basicMapping, checkedMapping, mappableFields } from "@/lib/csv/mapping";
import { AppError } from "@/lib/errors";
import { queueCsvImport } from "@/lib/queue/enqueue-csv-import";
import { entityFileOf } from "@/lib/space/entity-records";
import { checkCsvText, startCsvImport } from "./csv-import";

// The chat's import_entities action: the assistant writes a CSV file's text (one the builder
// pasted, or data it was asked to bring in) into its body, and the answer starts the same import
// as the Database panel's upload: stored, queued as the csv-import job, each row checked against
// the entity's schema, the valid ones written in batches. Its body:
//   {"csv": "<the file's text, its header row first>",
//    "mapping": [{"csvHeader": "Title", "schemaField": "title", "splitCharacter": ";"}, ...]}
// "mapping" is optional: without it each column fills the field of the same name (case aside).
// A column's values are read as its field's type says; columns the mapping leaves out, or maps
// to null or to no field of the entity, are ignored.

/** The action's body as the prompt teaches it (lib/space/assistant-prompt.ts). */
export const ChatImportBody = z.object({
  csv: z.string().min(1),
  mapping: z.array(z.unknown()).max(1000).optional(),
});

/**
 * Starts the import an import_entities action asks for, by the builder who chats; answers its id.
 * AppError (its message for the action card) when the body is not one, the app has no such
 * entity, the file is empty or has no data row, or no column fills a field.
 */
export async function startChatImport(
  app: App,
  userId: string,
  entity: string,
  body: unknown,
): Promise<{ importId: string }> {
  const parsed = ChatImportBody.safeParse(body);
  if (!parsed.success) throw new AppError("BAD_REQUEST", "chatImportBodyInvalid", "VALIDATION_FAILED");
  const { csv, mapping } = parsed.data;
  const file = await entityFileOf(app, entity);
  checkCsvText(csv);
  const fields = mappableFields(schemaOf(file.content));
  const headers = headersOf(csv);
  const mappings = mapping ? checkedMapping(mapping, headers, fields) : basicMapping(headers, fields);
  // A column mapped to id or creatorId fills nothing (the database and the builder set those).
  if (!mappings || importedColumns(mappings).length === 0) {
    throw new AppError(
      "BAD_REQUEST",
      { key: "chatImportNoColumn", vars: { name: entity } },
      "VALIDATION_FAILED",
    );
  }
  return startCsvImport(app, userId, entity, csv, mappings, queueCsvImport);
}

/** The entity's schema; {} when it does not read (startCsvImport then refuses it, with its reason). */
function schemaOf(content: string): { properties?: Record<string, unknown> } {
  try {
    const value: unknown = JSON.parse(content);
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/** The file's header row (a byte order mark is not part of the first name). */
function headersOf(csv: string): string[] {
  const first = Papa.parse<string[]>(csv.replace(/^\uFEFF/, ""), { preview: 1 }).data[0] ?? [];
  return first.filter((h) => h.trim() !== "");
}
