import { and, asc, desc, eq, sql } from "drizzle-orm";
import { db, type Executor } from "../client";
import { type EntityRecord, entityRecords } from "../schema";

export type NewEntityRecord = { creatorId: string | null; data: Record<string, unknown> };

/** Inserts records of one entity at once (one created_at: they keep their given order by id). */
export async function insertEntityRecords(
  appId: string,
  entity: string,
  records: NewEntityRecord[],
  ex: Executor = db(),
): Promise<number> {
  if (records.length === 0) return 0;
  const rows = await ex
    .insert(entityRecords)
    .values(records.map((r) => ({ appId, entity, creatorId: r.creatorId, data: r.data })))
    .returning({ id: entityRecords.id });
  return rows.length;
}

/**
 * A page of an entity's records by createdAt (newest first unless `direction` is "asc"), after the
 * cursor (the last record of the page before). Read along entity_records_list_idx, never sorted.
 * Positions are microseconds since the epoch, exact as PostgreSQL keeps created_at (a JS Date
 * keeps milliseconds, and a cursor rounded to them skipped records).
 */
export async function listEntityRecords(
  appId: string,
  entity: string,
  limit: number,
  after: { micros: string; id: string } | null,
  ex: Executor = db(),
  direction: "asc" | "desc" = "desc",
): Promise<(EntityRecord & { micros: string })[]> {
  const position = sql`(${entityRecords.createdAt}, ${entityRecords.id})`;
  const at = sql`(timestamptz 'epoch' + ${after?.micros}::bigint * interval '1 microsecond', ${after?.id}::uuid)`;
  const cursor = after
    ? direction === "desc"
      ? sql`${position} < ${at}`
      : sql`${position} > ${at}`
    : undefined;
  const dir = direction === "desc" ? desc : asc;
  return ex
    .select({
      id: entityRecords.id,
      appId: entityRecords.appId,
      entity: entityRecords.entity,
      creatorId: entityRecords.creatorId,
      data: entityRecords.data,
      createdAt: entityRecords.createdAt,
      updatedAt: entityRecords.updatedAt,
      micros: sql<string>`(extract(epoch from ${entityRecords.createdAt}) * 1000000)::bigint::text`,
    })
    .from(entityRecords)
    .where(and(eq(entityRecords.appId, appId), eq(entityRecords.entity, entity), cursor))
    .orderBy(dir(entityRecords.createdAt), dir(entityRecords.id))
    .limit(limit);
}

/** Characters of a text (or of a list's or an object's JSON) that a sort by its field compares. */
export const RECORD_SORT_KEY_CHARS = 256;

/**
 * A page of an entity's records sorted by one field of theirs (a key of their data, or id or
 * creatorId), ties by id, after the cursor: the last record's sort key (as JSON text) and id.
 * The key is the field's JSON value, a missing one as JSON null (the least of all values), a text
 * cut to RECORD_SORT_KEY_CHARS, a list or an object as its JSON text so cut: every key is a short
 * scalar, so a cursor that carries it stays short. Not indexed (the fields are the builder's, any
 * of them): PostgreSQL reads the entity's records and keeps the first `limit` (a top-N sort).
 */
export async function listEntityRecordsByField(
  appId: string,
  entity: string,
  field: string,
  direction: "asc" | "desc",
  limit: number,
  after: { key: string; id: string } | null,
  ex: Executor = db(),
): Promise<(EntityRecord & { sortKey: string })[]> {
  const value =
    field === "id"
      ? sql`to_jsonb(r.id)`
      : field === "creatorId"
        ? sql`coalesce(to_jsonb(r.creator_id), 'null'::jsonb)`
        : sql`coalesce(r.data -> ${field}::text, 'null'::jsonb)`;
  const cut = RECORD_SORT_KEY_CHARS;
  const op = direction === "desc" ? sql`<` : sql`>`;
  const dir = direction === "desc" ? sql`desc` : sql`asc`;
  const cursor = after ? sql`and (s.k, r.id) ${op} (${after.key}::jsonb, ${after.id}::uuid)` : sql``;
  const { rows } = await ex.execute<{
    id: string;
    app_id: string;
    entity: string;
    creator_id: string | null;
    data: Record<string, unknown>;
    created_at: string;
    updated_at: string;
    sort_key: string;
  }>(sql`
    select r.id, r.app_id, r.entity, r.creator_id, r.data, r.created_at, r.updated_at, s.k::text as sort_key
    from ${entityRecords} r
    cross join lateral (select ${value} as v) a
    cross join lateral (
      select case jsonb_typeof(a.v)
        when 'string' then to_jsonb(left(a.v #>> '{}', ${cut}::int))
        when 'array' then to_jsonb(left(a.v::text, ${cut}::int))
        when 'object' then to_jsonb(left(a.v::text, ${cut}::int))
        else a.v end as k
    ) s
    where r.app_id = ${appId} and r.entity = ${entity} ${cursor}
    order by s.k ${dir}, r.id ${dir}
    limit ${limit}`);
  return rows.map((r) => ({
    id: r.id,
    appId: r.app_id,
    entity: r.entity,
    creatorId: r.creator_id,
    data: r.data,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
    sortKey: r.sort_key,
  }));
}

export async function findEntityRecord(
  appId: string,
  entity: string,
  id: string,
  ex: Executor = db(),
): Promise<EntityRecord | undefined> {
  const [row] = await ex
    .select()
    .from(entityRecords)
    .where(and(eq(entityRecords.appId, appId), eq(entityRecords.entity, entity), eq(entityRecords.id, id)));
  return row;
}

export async function countEntityRecords(
  appId: string,
  entity: string,
  ex: Executor = db(),
): Promise<number> {
  const [row] = await ex
    .select({ n: sql<number>`count(*)::int` })
    .from(entityRecords)
    .where(and(eq(entityRecords.appId, appId), eq(entityRecords.entity, entity)));
  return row?.n ?? 0;
}

/** Deletes one record; false when the entity has no record of that id. */
export async function deleteEntityRecord(
  appId: string,
  entity: string,
  id: string,
  ex: Executor = db(),
): Promise<boolean> {
  const rows = await ex
    .delete(entityRecords)
    .where(and(eq(entityRecords.appId, appId), eq(entityRecords.entity, entity), eq(entityRecords.id, id)))
    .returning({ id: entityRecords.id });
  return rows.length === 1;
}
