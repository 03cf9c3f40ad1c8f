import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import { db, type Executor, lockUntilCommit } from "../client";
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
    Partial<Pick<ContextItem, "id" | "fileKey">>,
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
  extra: { error?: string | null; lastSyncedAt?: Date } = {},
  ex: Executor = db(),
): Promise<boolean> {
  const [row] = await ex
    .update(contextItems)
    .set({
      status,
      error: extra.error ?? null,
      ...(extra.lastSyncedAt ? { lastSyncedAt: extra.lastSyncedAt } : {}),
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

/** Replaces the item's chunks with these (a job that runs again starts from nothing). */
export async function replaceContextChunks(
  item: Pick<ContextItem, "id" | "appId">,
  chunks: string[],
  ex: Executor,
) {
  await ex.delete(contextChunks).where(eq(contextChunks.itemId, item.id));
  await insertInBatches(chunks, (batch, start) =>
    ex
      .insert(contextChunks)
      .values(batch.map((text, j) => ({ itemId: item.id, appId: item.appId, position: start + j, text }))),
  );
}

/** In batches: one statement's parameters are limited (65535), and a big source makes many rows. */
async function insertInBatches<T>(values: T[], insert: (batch: T[], start: number) => Promise<unknown>) {
  for (let start = 0; start < values.length; start += 500)
    await insert(values.slice(start, start + 500), start);
}

/** Replaces the item's CSV rows with these, in batches like the chunks. */
export async function replaceContextRows(
  item: Pick<ContextItem, "id" | "appId">,
  rows: Record<string, string>[],
  ex: Executor,
) {
  await ex.delete(contextRows).where(eq(contextRows.itemId, item.id));
  await insertInBatches(rows, (batch, start) =>
    ex
      .insert(contextRows)
      .values(batch.map((data, j) => ({ itemId: item.id, appId: item.appId, position: start + j, data }))),
  );
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
