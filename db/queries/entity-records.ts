import { and, desc, eq, sql } from "drizzle-orm";
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
 * A page of an entity's records, newest first, after the cursor (the last record of the page
 * before). Positions are microseconds since the epoch, exact as PostgreSQL keeps created_at (a JS
 * Date keeps milliseconds, and a cursor rounded to them skipped records).
 */
export async function listEntityRecords(
  appId: string,
  entity: string,
  limit: number,
  after: { micros: string; id: string } | null,
  ex: Executor = db(),
): Promise<(EntityRecord & { micros: string })[]> {
  const position = sql`(${entityRecords.createdAt}, ${entityRecords.id})`;
  const cursor = after
    ? sql`${position} < (timestamptz 'epoch' + ${after.micros}::bigint * interval '1 microsecond', ${after.id}::uuid)`
    : undefined;
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
    .orderBy(desc(entityRecords.createdAt), desc(entityRecords.id))
    .limit(limit);
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
