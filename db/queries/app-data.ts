import { and, asc, desc, eq, type SQL, sql } from "drizzle-orm";
import { db, type Executor } from "../client";
import { appFiles, apps, entityRecords, spaceBlobs, users } from "../schema";

// Data access of a space app's own code (lib/app-data): the app with one entity's schema, and its
// records as the data client reads and writes them. Every statement filters by the app and the
// entity; positions are microseconds (created_at and updated_at keep them, a JS Date does not).

export type RuntimeApp = {
  id: string;
  type: "tool" | "generated" | "space";
  status: "draft" | "active";
  ownerAccountId: string;
  /** The current version's file of the entity: its content hash and content, null without one. */
  entityHash: string | null;
  entitySchema: string | null;
};

/** The app and the current version's file at `entityPath`, in one statement. */
export async function findRuntimeApp(
  appId: string,
  entityPath: string | null,
  ex: Executor = db(),
): Promise<RuntimeApp | undefined> {
  let query = preparedRuntimeApp.get(ex);
  if (!query) {
    query = runtimeAppQuery(ex);
    preparedRuntimeApp.set(ex, query);
  }
  const [row] = await query.execute({ id: appId, path: entityPath ?? "" });
  return row as RuntimeApp | undefined;
}

/**
 * Read on every call of the data API, before anything else: built and prepared once per
 * database instance. Planned on every call, it took longer than the bare INSERT of a record
 * (bench/app-data.ts: about 1 ms against 0.3 ms prepared).
 */
function runtimeAppQuery(ex: Executor) {
  return ex
    .select({
      id: apps.id,
      type: apps.type,
      status: apps.status,
      ownerAccountId: apps.ownerAccountId,
      entityHash: spaceBlobs.hash,
      entitySchema: spaceBlobs.content,
    })
    .from(apps)
    .leftJoin(appFiles, and(eq(appFiles.appId, apps.id), eq(appFiles.path, sql.placeholder("path"))))
    .leftJoin(spaceBlobs, and(eq(spaceBlobs.appId, apps.id), eq(spaceBlobs.hash, appFiles.blobHash)))
    .where(eq(apps.id, sql.placeholder("id")))
    .prepare("find_runtime_app");
}

const preparedRuntimeApp = new WeakMap<Executor, ReturnType<typeof runtimeAppQuery>>();

const micros = (col: typeof entityRecords.createdAt | typeof entityRecords.updatedAt) =>
  sql<string>`(extract(epoch from ${col}) * 1000000)::bigint::text`;

const recordColumns = {
  id: entityRecords.id,
  creatorId: entityRecords.creatorId,
  data: entityRecords.data,
  createdAt: entityRecords.createdAt,
  updatedAt: entityRecords.updatedAt,
  createdMicros: micros(entityRecords.createdAt),
  updatedMicros: micros(entityRecords.updatedAt),
};

export type RuntimeRecord = {
  id: string;
  creatorId: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
  createdMicros: string;
  updatedMicros: string;
};

export type RecordListQuery = {
  appId: string;
  entity: string;
  limit: number;
  order: "createdAt" | "updatedAt";
  direction: "asc" | "desc";
  /** The last record of the page before: its position in `order`, and its id. */
  after: { micros: string; id: string } | null;
  /** Only this creator's records (the "creator" read level). */
  creatorId?: string;
  /** Only records whose data contains this object (equality of top-level fields). */
  contains?: Record<string, unknown>;
};

/** A page of records, in the asked order, after the cursor. */
export async function listRuntimeRecords(q: RecordListQuery, ex: Executor = db()): Promise<RuntimeRecord[]> {
  return recordListQuery(q, ex);
}

/**
 * The statement of listRuntimeRecords, unrun (its plan is tested: each order must be read from
 * an index, never sorted, or a list of a large entity reads all its records).
 */
export function recordListQuery(q: RecordListQuery, ex: Executor = db()) {
  const col = q.order === "createdAt" ? entityRecords.createdAt : entityRecords.updatedAt;
  const position = sql`(${col}, ${entityRecords.id})`;
  const at = q.after
    ? sql`(timestamptz 'epoch' + ${q.after.micros}::bigint * interval '1 microsecond', ${q.after.id}::uuid)`
    : null;
  const where: (SQL | undefined)[] = [eq(entityRecords.appId, q.appId), eq(entityRecords.entity, q.entity)];
  if (at) where.push(q.direction === "desc" ? sql`${position} < ${at}` : sql`${position} > ${at}`);
  if (q.creatorId !== undefined) where.push(eq(entityRecords.creatorId, q.creatorId));
  if (q.contains && Object.keys(q.contains).length > 0) {
    where.push(sql`${entityRecords.data} @> ${JSON.stringify(q.contains)}::jsonb`);
  }
  const dir = q.direction === "desc" ? desc : asc;
  return ex
    .select(recordColumns)
    .from(entityRecords)
    .where(and(...where))
    .orderBy(dir(col), dir(entityRecords.id))
    .limit(q.limit);
}

export async function findRuntimeRecord(
  appId: string,
  entity: string,
  id: string,
  ex: Executor = db(),
): Promise<RuntimeRecord | undefined> {
  const [row] = await ex
    .select(recordColumns)
    .from(entityRecords)
    .where(and(eq(entityRecords.appId, appId), eq(entityRecords.entity, entity), eq(entityRecords.id, id)));
  return row;
}

/** One record, as the data client's create writes it (the same statement as one of insertRuntimeRecords). */
export async function insertRuntimeRecord(
  appId: string,
  entity: string,
  record: { creatorId: string | null; data: Record<string, unknown> },
  ex: Executor = db(),
): Promise<RuntimeRecord> {
  let query = preparedInsert.get(ex);
  if (!query) {
    query = insertRecordQuery(ex);
    preparedInsert.set(ex, query);
  }
  const [row] = await query.execute({ appId, entity, creatorId: record.creatorId, data: record.data });
  return row!;
}

// Built and prepared once per database instance: building the INSERT on every create cost about
// half as much again as running it (bench/app-data.ts).
function insertRecordQuery(ex: Executor) {
  return ex
    .insert(entityRecords)
    .values({
      appId: sql.placeholder("appId"),
      entity: sql.placeholder("entity"),
      creatorId: sql.placeholder("creatorId"),
      data: sql.placeholder("data"),
    })
    .returning(recordColumns)
    .prepare("insert_runtime_record");
}

const preparedInsert = new WeakMap<Executor, ReturnType<typeof insertRecordQuery>>();

/** Inserts records, all or none, answering them in the given order. */
export async function insertRuntimeRecords(
  appId: string,
  entity: string,
  records: { creatorId: string | null; data: Record<string, unknown> }[],
  ex: Executor = db(),
): Promise<RuntimeRecord[]> {
  if (records.length === 0) return [];
  return ex
    .insert(entityRecords)
    .values(records.map((r) => ({ appId, entity, creatorId: r.creatorId, data: r.data })))
    .returning(recordColumns);
}

/**
 * Writes a record's whole data, only if it is still as the caller read it (its updated_at, to the
 * microsecond): undefined when it changed or went meanwhile.
 */
export async function replaceRuntimeRecord(
  appId: string,
  entity: string,
  id: string,
  data: Record<string, unknown>,
  readAtMicros: string,
  ex: Executor = db(),
): Promise<RuntimeRecord | undefined> {
  const [row] = await ex
    .update(entityRecords)
    .set({ data, updatedAt: sql`greatest(now(), ${entityRecords.updatedAt} + interval '1 microsecond')` })
    .where(
      and(
        eq(entityRecords.appId, appId),
        eq(entityRecords.entity, entity),
        eq(entityRecords.id, id),
        sql`${micros(entityRecords.updatedAt)} = ${readAtMicros}`,
      ),
    )
    .returning(recordColumns);
  return row;
}

/** A user as the app's code sees them: an end user of some app (tenantId), or a builder (null). */
export async function findRuntimeUser(userId: string, ex: Executor = db()) {
  const [row] = await ex
    .select({
      id: users.id,
      tenantId: users.tenantId,
      email: users.email,
      name: users.name,
      appRole: users.appRole,
      appData: users.appData,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

export async function setAppUserData(
  appId: string,
  userId: string,
  data: Record<string, unknown>,
  ex: Executor = db(),
): Promise<void> {
  await ex
    .update(users)
    .set({ appData: data, updatedAt: new Date() })
    .where(and(eq(users.id, userId), eq(users.tenantId, appId)));
}
