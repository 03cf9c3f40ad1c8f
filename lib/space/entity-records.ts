import "server-only";
import { z } from "zod";
import {
  countEntityRecords,
  deleteEntityRecord,
  listEntityRecordsByField,
  type NewEntityRecord,
  listEntityRecords as readRecordPage,
} from "@/db/queries/entity-records";
import { readBlobs } from "@/db/queries/space-files";
import type { App, EntityRecord } from "@/db/schema";
import {
  ENTITY_EXPORT_MAX,
  ENTITY_RECORD_BYTES_MAX,
  ENTITY_RECORDS_PAGE,
  ENTITY_RECORDS_PAGE_MAX,
  ENTITY_RECORDS_PER_ACTION_MAX,
  ENTITY_SORT_FIELD_MAX,
} from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { toCsv } from "@/lib/format/csv";
import { messages } from "@/lib/messages";
import { isStorableText, storableString } from "@/lib/storable-text";
import { assertSpaceApp, currentTree } from "./commit";
import { type EntityView, entityView } from "./entities";
import { ENTITY_NAME, entityPath } from "./files";

// Records of a space app's entities: the chat's insert_entity_records action
// adds them (lib/space/chat-stream.ts), the Database panel lists them newest first, deletes one,
// and exports them as CSV. An entity is one of the current version's (lib/space/entities.ts).

export const EntityParams = z.object({ appId: z.uuid(), entity: z.string().regex(ENTITY_NAME) });
export const EntityRecordParams = EntityParams.extend({ recordId: z.uuid() });

/**
 * A page's cursor: the last record's position in the sort, then its id. By createdAt the position
 * is microseconds since the epoch (`{micros}_{id}`); by another field it is the record's sort key,
 * JSON as base64url (`{key}.{id}`; short: the keys are cut, db/queries/entity-records.ts).
 */
const CREATED_CURSOR = /^\d{1,18}_[0-9a-f-]{36}$/;
const FIELD_CURSOR = /^[A-Za-z0-9_-]{1,2200}\.[0-9a-f-]{36}$/;

/** GET .../records?limit=&cursor=&sort= (the cursor the page before answered, under the same sort). */
export const EntityRecordsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(ENTITY_RECORDS_PAGE_MAX).default(ENTITY_RECORDS_PAGE),
  cursor: storableString()
    .max(2240)
    .refine((c) => CREATED_CURSOR.test(c) || FIELD_CURSOR.test(c), {
      message: messages.entityRecordCursorInvalid,
    })
    .optional(),
  sort: storableString()
    .max(ENTITY_SORT_FIELD_MAX + 1)
    .optional()
    .describe(
      "A field of the entity (id, creatorId, createdAt or one of its own), `-` first for descending; ties by id. Default -createdAt",
    )
    .meta({ examples: ["-createdAt", "title"] }),
});
export type EntityRecordsQuery = z.infer<typeof EntityRecordsQuery>;

/** A record of an entity: its built-in fields, and its own as the chat's action wrote them. */
export const EntityRecordAnswer = z.object({
  id: z.uuid(),
  creatorId: z.uuid().nullable(),
  createdAt: z.iso.datetime(),
  data: z
    .record(z.string(), z.unknown())
    .describe("Free-form JSON: the record's fields as written (the entity's schema does not bind them)"),
});
export type EntityRecordView = z.infer<typeof EntityRecordAnswer>;

/** GET .../records: a page of records, newest first, their count, and the next page's `cursor`. */
export const EntityRecordPageAnswer = z.object({
  records: z.array(EntityRecordAnswer),
  total: z
    .number()
    .int()
    .min(0)
    .nullable()
    .describe(
      "The entity's records counted; null on a later page (a cursor given): the first page's count stands",
    ),
  nextCursor: EntityRecordsQuery.shape.cursor.unwrap().nullable(),
});
export type EntityRecordPage = z.infer<typeof EntityRecordPageAnswer>;

/** DELETE .../records/{recordId} */
export const RecordDeletedAnswer = z.object({ deleted: z.literal(true) });

export const recordView = (
  r: Pick<EntityRecord, "id" | "creatorId" | "createdAt" | "data">,
): EntityRecordView => ({
  id: r.id,
  creatorId: r.creatorId,
  createdAt: r.createdAt.toISOString(),
  data: r.data,
});

/**
 * The entity of the current version, or 404 'Entity not found' (User included: not the
 * builder's). Only its own file is read, not the app's every file.
 */
async function entityOf(app: App, name: string): Promise<EntityView> {
  const { path, content } = await entityFileOf(app, name);
  const entity = entityView({ path, content });
  if (!entity) throw new AppError("NOT_FOUND", "entityNotFound", "ENTITY_NOT_FOUND");
  return entity;
}

/**
 * The entity's file in the current version (its content hash keys the compiled schema), or 404
 * 'Entity not found'; the User entity is the app's end users, not the builder's records.
 */
export async function entityFileOf(
  app: App,
  name: string,
): Promise<{ path: string; hash: string; content: string }> {
  assertSpaceApp(app);
  const path = entityPath(name);
  const hash = name === "User" ? undefined : (await currentTree(app.id)).get(path);
  if (!hash) throw new AppError("NOT_FOUND", "entityNotFound", "ENTITY_NOT_FOUND");
  return { path, hash, content: (await readBlobs(app.id, [hash])).get(hash) ?? "" };
}

const badRequest = (key: "entityRecordSortInvalid" | "entityRecordCursorInvalid", field: string) => {
  const err = new AppError("BAD_REQUEST", key, "VALIDATION_FAILED");
  err.field = field;
  return err;
};

/** The sort a query asks for: a top-level field of the entity (built-ins included), or 400. */
function sortOf(entity: EntityView, sort = "-createdAt"): { field: string; direction: "asc" | "desc" } {
  const direction = sort.startsWith("-") ? "desc" : "asc";
  const field = direction === "desc" ? sort.slice(1) : sort;
  if (!entity.fields.some((f) => f.name === field && !f.name.includes("."))) {
    throw badRequest("entityRecordSortInvalid", "sort");
  }
  return { field, direction };
}

/** The sort key a field cursor carries, as JSON text PostgreSQL takes back, or 400. */
function cursorKey(encoded: string): string {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(encoded, "base64url").toString("utf8"));
  } catch {
    throw badRequest("entityRecordCursorInvalid", "cursor");
  }
  // The keys the list makes are scalars (db/queries/entity-records.ts); a number must be one
  // PostgreSQL can hold, a text one it can store.
  const scalar =
    key === null ||
    typeof key === "boolean" ||
    (typeof key === "number" && Number.isFinite(key)) ||
    (typeof key === "string" && isStorableText(key));
  if (!scalar) throw badRequest("entityRecordCursorInvalid", "cursor");
  return JSON.stringify(key);
}

/**
 * A page of an entity's records in the asked sort (newest first by default), their count, and the
 * next page's cursor. By createdAt it is read along the list index; by another field PostgreSQL
 * sorts the entity's records (the builder's fields have no index). Ties are broken by id, and the
 * cursor holds the last record's position, so paging is exact under any sort: every record once.
 */
export async function listRecords(
  app: App,
  name: string,
  query: EntityRecordsQuery,
): Promise<EntityRecordPage> {
  const entity = await entityOf(app, name);
  const { field, direction } = sortOf(entity, query.sort);
  // Counted with the first page only: the count reads the entity's every index entry (about 30 ms
  // at 100,000 records on a busy machine, bench/space-grid-scroll.ts), a later page a hundred.
  const total = query.cursor ? Promise.resolve(null) : countEntityRecords(app.id, name);
  if (field === "createdAt") {
    if (query.cursor && !CREATED_CURSOR.test(query.cursor))
      throw badRequest("entityRecordCursorInvalid", "cursor");
    const [micros, id] = query.cursor?.split("_") ?? [];
    const after = micros && id ? { micros, id } : null;
    const rows = await readRecordPage(app.id, name, query.limit + 1, after, undefined, direction);
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      records: page.map(recordView),
      total: await total,
      nextCursor: rows.length > query.limit && last ? `${last.micros}_${last.id}` : null,
    };
  }
  if (query.cursor && !FIELD_CURSOR.test(query.cursor))
    throw badRequest("entityRecordCursorInvalid", "cursor");
  const dot = query.cursor?.lastIndexOf(".") ?? -1;
  const after = query.cursor
    ? { key: cursorKey(query.cursor.slice(0, dot)), id: query.cursor.slice(dot + 1) }
    : null;
  const rows = await listEntityRecordsByField(app.id, name, field, direction, query.limit + 1, after);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    records: page.map(recordView),
    total: await total,
    nextCursor:
      rows.length > query.limit && last
        ? `${Buffer.from(last.sortKey, "utf8").toString("base64url")}.${last.id}`
        : null,
  };
}

export async function removeRecord(app: App, name: string, recordId: string): Promise<{ deleted: true }> {
  await entityOf(app, name);
  if (!(await deleteEntityRecord(app.id, name, recordId))) {
    throw new AppError("NOT_FOUND", "entityRecordNotFound", "RECORD_NOT_FOUND");
  }
  return { deleted: true };
}

/**
 * {entity}_export_{date}.csv: a column per field of the schema, then any other key the
 * records hold, and last 'Entity ID'; newest first. Objects and lists are written as JSON. Cells
 * that a spreadsheet would run as a formula (=, +, -, @, tab or CR first, whatever lines follow) are
 * escaped (lib/format/csv.ts).
 */
export async function exportRecordsCsv(app: App, name: string): Promise<Response> {
  const entity = await entityOf(app, name);
  const rows = await readRecordPage(app.id, name, ENTITY_EXPORT_MAX, null);
  const fields = entity.fields.filter((f) => !f.builtIn && !f.name.includes(".")).map((f) => f.name);
  const extra = [...new Set(rows.flatMap((r) => Object.keys(r.data)))].filter((k) => !fields.includes(k));
  const columns = [...fields, ...extra];
  const cell = (v: unknown) =>
    v === undefined || v === null ? "" : typeof v === "object" ? JSON.stringify(v) : String(v);
  const csv = toCsv(
    [...columns, messages.databaseExportIdColumn],
    rows.map((r) => [...columns.map((c) => cell(r.data[c])), r.id]),
  );
  const date = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}_export_${date}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}

/** The records of one insert_entity_records action of an answer, stored with its version. */
export type RecordBatch = { actionId: string; entity: string; records: NewEntityRecord[] };

/**
 * The records an insert_entity_records action holds (its JSON: an array of objects, or one object),
 * or null when it holds none that can be stored: not JSON objects, more than
 * ENTITY_RECORDS_PER_ACTION_MAX, or one over ENTITY_RECORD_BYTES_MAX as JSON. All or nothing.
 */
export function recordsOfAction(data: unknown, creatorId: string | null): NewEntityRecord[] | null {
  const list = Array.isArray(data) ? data : data !== undefined ? [data] : [];
  if (list.length === 0 || list.length > ENTITY_RECORDS_PER_ACTION_MAX) return null;
  const records: NewEntityRecord[] = [];
  for (const item of list) {
    if (typeof item !== "object" || item === null || Array.isArray(item)) return null;
    if (Buffer.byteLength(JSON.stringify(item), "utf8") > ENTITY_RECORD_BYTES_MAX) return null;
    // The built-in fields are the table's own: a record cannot set them.
    const { id: _id, creatorId: _c, createdAt: _t, ...fields } = item as Record<string, unknown>;
    records.push({ creatorId, data: fields });
  }
  return records;
}
