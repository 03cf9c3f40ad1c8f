import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import { db, type Executor, lockUntilCommit } from "../client";
import { JOBS_SCHEMA, QUEUES } from "../job-queues";
import { type ContextItem, type ContextItemStatus, contextItems } from "../schema";

// A data source (an item) of an app: added, listed, renamed, deleted, moved from status to status
// (each change announced). Its chunks and rows are context-content.ts.

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
