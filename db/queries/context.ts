import { and, asc, count, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { db, type Executor, lockUntilCommit } from "../client";
import { JOBS_SCHEMA, QUEUES } from "../job-queues";
import {
  type ContextItem,
  type ContextItemStatus,
  contextChunks,
  contextItems,
  contextRows,
} from "../schema";

/** The channel every status change of a data source is announced on (the live status stream listens). */
export const CONTEXT_NOTIFY_CHANNEL = "context_items";

/**
 * Serializes the additions of data sources to one app until the transaction ends, so the plan's
 * item limit is counted and used by one request at a time (a parallel burst cannot pass it).
 */
export async function lockAppContext(appId: string, ex: Executor) {
  await lockUntilCommit(`context:${appId}`, ex);
}

export async function countContextItems(appId: string, ex: Executor = db()): Promise<number> {
  const [row] = await ex.select({ n: count() }).from(contextItems).where(eq(contextItems.appId, appId));
  return row?.n ?? 0;
}

export async function insertContextItem(
  values: Pick<ContextItem, "appId" | "name" | "type" | "source" | "status" | "size" | "content"> &
    Partial<Pick<ContextItem, "id" | "fileKey" | "externalFileUrl" | "externalFileId" | "provider">>,
  ex: Executor = db(),
): Promise<ContextItem> {
  const [row] = await ex.insert(contextItems).values(values).returning();
  await notifyStatus(row!, ex);
  return row!;
}

/** An app's data sources, newest first; without their text, which can be large. */
export async function listContextItems(
  appId: string,
  statuses?: readonly ContextItemStatus[],
  ex: Executor = db(),
) {
  const { content: _content, ...columns } = contextItemColumns();
  return ex
    .select(columns)
    .from(contextItems)
    .where(
      statuses
        ? and(eq(contextItems.appId, appId), inArray(contextItems.status, [...statuses]))
        : eq(contextItems.appId, appId),
    )
    .orderBy(desc(contextItems.createdAt), desc(contextItems.id));
}

function contextItemColumns() {
  const { id, appId, name, type, source, status, error, size, content, createdAt, lastSyncedAt } =
    contextItems;
  const { externalFileUrl, externalFileId, providerItemId, provider } = contextItems;
  return {
    id,
    appId,
    name,
    type,
    source,
    status,
    error,
    size,
    content,
    createdAt,
    lastSyncedAt,
    externalFileUrl,
    externalFileId,
    providerItemId,
    provider,
  };
}

export async function findContextItem(id: string, ex: Executor = db()): Promise<ContextItem | undefined> {
  const [row] = await ex.select().from(contextItems).where(eq(contextItems.id, id));
  return row;
}

/** The item only if it is one of this app's: another app's item is as good as none. */
export async function findAppContextItem(
  appId: string,
  id: string,
  ex: Executor = db(),
): Promise<ContextItem | undefined> {
  const [row] = await ex
    .select()
    .from(contextItems)
    .where(and(eq(contextItems.id, id), eq(contextItems.appId, appId)));
  return row;
}

export async function renameContextItem(id: string, name: string, ex: Executor = db()): Promise<boolean> {
  const rows = await ex
    .update(contextItems)
    .set({ name })
    .where(eq(contextItems.id, id))
    .returning({ id: contextItems.id });
  return rows.length > 0;
}

/** Deletes an item (its chunks and rows cascade); the deleted item's stored file key, or false. */
export async function deleteContextItem(
  id: string,
  ex: Executor = db(),
): Promise<{ fileKey: string | null } | false> {
  const rows = await ex
    .delete(contextItems)
    .where(eq(contextItems.id, id))
    .returning({ fileKey: contextItems.fileKey });
  return rows[0] ?? false;
}

/** Moves an item to a status (and announces it); false when the item is gone. */
export async function setContextItemStatus(
  id: string,
  status: ContextItemStatus,
  extra: { error?: string | null; lastSyncedAt?: Date; size?: number } = {},
  ex: Executor = db(),
): Promise<boolean> {
  const [row] = await ex
    .update(contextItems)
    .set({
      status,
      error: extra.error ?? null,
      statusChangedAt: sql`now()`,
      ...(extra.lastSyncedAt ? { lastSyncedAt: extra.lastSyncedAt } : {}),
      ...(extra.size !== undefined ? { size: extra.size } : {}),
    })
    .where(eq(contextItems.id, id))
    .returning();
  if (row) await notifyStatus(row, ex);
  return Boolean(row);
}

// Sent with the transaction's commit, so a listener never sees a status the database does not hold.
async function notifyStatus(
  item: Pick<ContextItem, "id" | "appId" | "status" | "error" | "lastSyncedAt">,
  ex: Executor,
) {
  const payload = JSON.stringify({
    id: item.id,
    appId: item.appId,
    status: item.status,
    error: item.error,
    lastSyncedAt: item.lastSyncedAt,
  });
  await ex.execute(sql`select pg_notify(${CONTEXT_NOTIFY_CHANNEL}, ${payload})`);
}

/**
 * Makes one ingestion at a time write an item's chunks and rows, until the transaction ends. Two
 * runs of one item (a job re-run while its first run still writes) would otherwise each delete
 * what they see and insert their own, doubling the chunks; serialized, the second deletes the
 * first's rows, since its statements start after the first committed.
 */
export async function lockItemContent(itemId: string, ex: Executor) {
  await lockUntilCommit(`context-item:${itemId}`, ex);
}

/** Deletes an item's chunks and rows, before a new ingestion writes its own. */
export async function deleteItemContent(itemId: string, ex: Executor) {
  await ex.delete(contextChunks).where(eq(contextChunks.itemId, itemId));
  await ex.delete(contextRows).where(eq(contextRows.itemId, itemId));
}

// Rows and chunks go in batches, each batch one statement with one JSON parameter: a source of
// any size is written holding one batch of each, and PostgreSQL parses one value per batch
// instead of thousands of parameters.
const ROW_BATCH = 1000;
const CHUNK_BATCH = 200;

/**
 * Writes an item's chunks and rows as they come, numbering each in order. One statement is in
 * flight while the caller prepares the next batch, so parsing and the database's work overlap;
 * a failure is thrown by the next call. Call flush() once at the end.
 */
export function contentWriter(item: Pick<ContextItem, "id" | "appId">, ex: Executor) {
  let chunks: string[] = [];
  let rows: Record<string, string>[] = [];
  let chunkCount = 0;
  let rowCount = 0;
  let inFlight: Promise<unknown> = Promise.resolve();
  const send = async (statement: SQL) => {
    await inFlight;
    // A real promise: drizzle's query runs again on every then() of its own.
    const p = Promise.resolve(ex.execute(statement));
    // Awaited by the next send or by flush; until then its failure must not go unhandled.
    p.catch(() => {});
    inFlight = p;
  };
  const writeChunks = async () => {
    if (chunks.length === 0) return;
    const batch = JSON.stringify(chunks);
    const start = chunkCount;
    chunkCount += chunks.length;
    chunks = [];
    await send(sql`
      insert into context_chunks (item_id, app_id, position, text)
      select ${item.id}, ${item.appId}, ${start}::int + (n - 1)::int, t
      from json_array_elements_text(${batch}::json) with ordinality as b(t, n)`);
  };
  const writeRows = async () => {
    if (rows.length === 0) return;
    const batch = JSON.stringify(rows);
    const start = rowCount;
    rowCount += rows.length;
    rows = [];
    await send(sql`
      insert into context_rows (item_id, app_id, position, data)
      select ${item.id}, ${item.appId}, ${start}::int + (n - 1)::int, d
      from jsonb_array_elements(${batch}::jsonb) with ordinality as b(d, n)`);
  };
  return {
    async addChunks(more: readonly string[]) {
      for (const c of more) {
        chunks.push(c);
        if (chunks.length >= CHUNK_BATCH) await writeChunks();
      }
    },
    async addRow(row: Record<string, string>) {
      rows.push(row);
      if (rows.length >= ROW_BATCH) await writeRows();
    },
    async flush() {
      await writeChunks();
      await writeRows();
      await inFlight;
    },
    /** How many were added so far, written or not. */
    counts: () => ({ chunks: chunkCount + chunks.length, rows: rowCount + rows.length }),
  };
}

/** Replaces the item's chunks and rows with these (a job that runs again starts from nothing). */
export async function replaceItemContent(
  item: Pick<ContextItem, "id" | "appId">,
  chunks: readonly string[],
  rows: readonly Record<string, string>[],
  ex: Executor,
) {
  await deleteItemContent(item.id, ex);
  const writer = contentWriter(item, ex);
  await writer.addChunks(chunks);
  for (const row of rows) await writer.addRow(row);
  await writer.flush();
}

export async function listContextRows(itemId: string, ex: Executor = db()) {
  return ex
    .select({ position: contextRows.position, data: contextRows.data })
    .from(contextRows)
    .where(eq(contextRows.itemId, itemId))
    .orderBy(asc(contextRows.position));
}

export async function listContextChunks(itemId: string, ex: Executor = db()) {
  return ex
    .select({ position: contextChunks.position, text: contextChunks.text })
    .from(contextChunks)
    .where(eq(contextChunks.itemId, itemId))
    .orderBy(asc(contextChunks.position));
}

export type RetrievedChunk = {
  itemId: string;
  itemName: string;
  position: number;
  text: string;
  rank: number;
};

/** The app's chunks that match the query best (PostgreSQL full-text search), only of synced items. */
export async function searchContextChunks(
  appId: string,
  query: string,
  limit: number,
  ex: Executor = db(),
): Promise<RetrievedChunk[]> {
  const res = await ex.execute<{
    item_id: string;
    item_name: string;
    position: number;
    text: string;
    rank: number;
  }>(sql`
    with q as (select websearch_to_tsquery('simple', ${query}) as query)
    select c.item_id, i.name as item_name, c.position, c.text, ts_rank(c.tsv, q.query) as rank
    from context_chunks c
    join context_items i on i.id = c.item_id
    cross join q
    where c.app_id = ${appId} and i.app_id = ${appId} and i.status = 'synced' and c.tsv @@ q.query
    order by rank desc, c.item_id, c.position
    limit ${limit}`);
  return res.rows.map((r) => ({
    itemId: r.item_id,
    itemName: r.item_name,
    position: Number(r.position),
    text: r.text,
    rank: Number(r.rank),
  }));
}

/** One condition of smart items filtering: a column whose value is (include) or is not (exclude) one of these. */
export type RowCondition = { column: string; values: readonly string[]; mode: "include" | "exclude" };

export type MatchedRow = { itemId: string; position: number; data: Record<string, string> };

/**
 * The CSV rows of the app's synced items that meet every condition, compared case-insensitively,
 * in item and row order. An include condition asks the GIN index of the lowered rows
 * (context_rows_data_ci_idx) with containment (@>) of the same expression; an exclude condition
 * keeps the rows none of its values match, a row without the column included.
 */
export async function findMatchingContextRows(
  appId: string,
  conditions: readonly RowCondition[],
  limit: number,
  ex: Executor = db(),
): Promise<MatchedRow[]> {
  const lowered = sql`(lower(r.data::text)::jsonb)`;
  const anyOf = (c: RowCondition): SQL =>
    sql`(${sql.join(
      c.values.map((v) => sql`${lowered} @> jsonb_build_object(lower(${c.column}::text), lower(${v}::text))`),
      sql` or `,
    )})`;
  const filters = conditions.map((c) => (c.mode === "include" ? anyOf(c) : sql`not ${anyOf(c)}`));
  const res = await ex.execute<{ item_id: string; position: number; data: Record<string, string> }>(sql`
    select r.item_id, r.position, r.data
    from context_rows r
    join context_items i on i.id = r.item_id
    where r.app_id = ${appId} and i.app_id = ${appId} and i.status = 'synced'
    ${filters.length ? sql`and ${sql.join(filters, sql` and `)}` : sql``}
    order by i.created_at, r.item_id, r.position
    limit ${limit}`);
  return res.rows.map((r) => ({ itemId: r.item_id, position: Number(r.position), data: r.data }));
}

/**
 * Ends in Error the items still Pending or Syncing... whose status has not moved for `idleFor`
 * and that no ingestion job will pick up any more (none created, waiting for a retry or active):
 * a job that ran out of attempts while its worker was dying, was deleted, or was never queued.
 * Announced like every status change. Returns how many.
 */
export async function failOrphanedContextItems(
  error: string,
  idleFor: { seconds: number },
  ex: Executor = db(),
): Promise<number> {
  const res = await ex.execute<ContextItemRow>(sql`
    update context_items i
    set status = 'error', error = ${error}, status_changed_at = now()
    where i.status in ('unsynced', 'pending', 'running')
      and i.status_changed_at < now() - make_interval(secs => ${idleFor.seconds})
      and not exists (
        select 1 from ${sql.identifier(JOBS_SCHEMA)}.job j
        where j.name = ${QUEUES.contextIngest}
          and j.state in ('created', 'retry', 'active')
          and j.data->>'itemId' = i.id::text
      )
    returning i.id, i.app_id, i.status, i.error, i.last_synced_at`);
  for (const r of res.rows) {
    await notifyStatus(
      { id: r.id, appId: r.app_id, status: r.status, error: r.error, lastSyncedAt: r.last_synced_at },
      ex,
    );
  }
  return res.rows.length;
}

type ContextItemRow = {
  id: string;
  app_id: string;
  status: ContextItemStatus;
  error: string | null;
  last_synced_at: Date | null;
};
