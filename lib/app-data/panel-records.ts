import "server-only";
import { findRuntimeRecord, insertRuntimeRecords, replaceRuntimeRecord } from "@/db/queries/app-data";
import type { App } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { type EntityRecordView, entityFileOf, recordView } from "@/lib/space/entity-records";
import { checkedFields } from "./check-fields";
import { entitySchemaOf } from "./entity-schema";
import type { PanelCellBody } from "./schemas";

// The builder's writes of records from the Database panel's table: a new row, and the edit of one
// cell. They live here rather than beside the panel's reads (lib/space/entity-records.ts) because
// they check records exactly as the data API does (./entity-schema.ts, ./check-fields.ts), and
// lib/space may not import lib/app-data (which imports lib/space). The builder owns the app, so no
// access level applies; a record they add is theirs (creatorId is their user id).

type Fields = { [key: string]: unknown };

/** The entity's compiled schema, from its file in the current version (404 when there is none, or User). */
async function schemaOf(app: App, entity: string) {
  const file = await entityFileOf(app, entity);
  return entitySchemaOf(entity, file.hash, file.content);
}

/** A row is empty when no field holds something: no key, or only nulls and blank strings. */
const isEmpty = (fields: Fields) =>
  Object.values(fields).every((v) => v === null || (typeof v === "string" && v.trim() === ""));

/** POST .../entities/{entity}/records: a new row, checked against the entity's schema. */
export async function createPanelRecord(
  app: App,
  userId: string,
  entity: string,
  fields: Fields,
): Promise<EntityRecordView> {
  const schema = await schemaOf(app, entity);
  if (isEmpty(fields)) throw new AppError("BAD_REQUEST", "databaseRowEmpty", "VALIDATION_FAILED");
  const data = checkedFields(schema, fields);
  const [row] = await insertRuntimeRecords(app.id, entity, [{ creatorId: userId, data }]);
  return recordView(row!);
}

/**
 * PATCH .../entities/{entity}/records/{recordId}: one cell's new value (null removes the field),
 * the whole record checked again. Written only if nobody changed the record since it was read
 * here, else 409: the panel reloads the row rather than overwrite another's change.
 */
export async function updatePanelCell(
  app: App,
  entity: string,
  recordId: string,
  cell: PanelCellBody,
): Promise<EntityRecordView> {
  const schema = await schemaOf(app, entity);
  const row = await findRuntimeRecord(app.id, entity, recordId);
  if (!row) throw new AppError("NOT_FOUND", "entityRecordNotFound", "RECORD_NOT_FOUND");
  const { [cell.field]: _old, ...rest } = row.data;
  const data = checkedFields(schema, cell.value === null ? rest : { ...rest, [cell.field]: cell.value });
  const saved = await replaceRuntimeRecord(app.id, entity, recordId, data, row.updatedMicros);
  if (!saved) throw new AppError("CONFLICT", "appDataRecordChanged", "RECORD_CHANGED");
  return recordView(saved);
}
