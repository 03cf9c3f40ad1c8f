import { and, asc, count, desc, eq, gt, inArray, isNull, lt, lte, sql } from "drizzle-orm";
import { db, type Executor } from "../client";
import {
  appFiles,
  type ChatAssistant,
  type ChatMessage,
  chatAssistants,
  chatMessages,
  type FileChangeStatus,
  type Rating,
  ratings,
  spaceBlobs,
  spaceHeads,
  type Version,
  versionFiles,
  versions,
} from "../schema";

// Data access of space apps (lib/space): blobs, the current files, versions and their files, the
// chat and its ratings. Every query names the app: a tenant's rows are never read by id alone.

// ---- blobs ----

export type NewBlob = { hash: string; content: string; size: number };

/** Stores contents not stored yet; one that is (same app, same hash) is left as it is. */
export async function insertBlobs(appId: string, blobs: NewBlob[], ex: Executor = db()): Promise<void> {
  if (blobs.length === 0) return;
  await ex
    .insert(spaceBlobs)
    .values(blobs.map((b) => ({ appId, ...b })))
    .onConflictDoNothing();
}

/** The contents of these hashes, by hash. */
export async function readBlobs(appId: string, hashes: string[], ex: Executor = db()) {
  if (hashes.length === 0) return new Map<string, string>();
  const rows = await ex
    .select({ hash: spaceBlobs.hash, content: spaceBlobs.content })
    .from(spaceBlobs)
    .where(and(eq(spaceBlobs.appId, appId), inArray(spaceBlobs.hash, [...new Set(hashes)])));
  return new Map(rows.map((r) => [r.hash, r.content]));
}

/** Which of these hashes the app stores already. */
export async function existingBlobHashes(appId: string, hashes: string[], ex: Executor = db()) {
  if (hashes.length === 0) return new Set<string>();
  const rows = await ex
    .select({ hash: spaceBlobs.hash })
    .from(spaceBlobs)
    .where(and(eq(spaceBlobs.appId, appId), inArray(spaceBlobs.hash, hashes)));
  return new Set(rows.map((r) => r.hash));
}

// ---- the current state ----

export async function findHead(appId: string, ex: Executor = db()) {
  const [row] = await ex.select().from(spaceHeads).where(eq(spaceHeads.appId, appId));
  return row;
}

/** Points the app at a version (null: no files yet) and moves its revision on. */
export async function setHead(appId: string, versionId: string | null, ex: Executor = db()) {
  const [row] = await ex
    .insert(spaceHeads)
    .values({ appId, versionId, revision: 1 })
    .onConflictDoUpdate({
      target: spaceHeads.appId,
      set: { versionId, revision: sql`${spaceHeads.revision} + 1`, updatedAt: new Date() },
    })
    .returning();
  return row!;
}

/** The current files' paths and hashes. */
export async function listAppFileHashes(appId: string, ex: Executor = db()) {
  return ex
    .select({ path: appFiles.path, hash: appFiles.blobHash })
    .from(appFiles)
    .where(eq(appFiles.appId, appId))
    .orderBy(asc(appFiles.path));
}

/** The current files with their contents, by path. */
export async function listAppFilesWithContent(appId: string, ex: Executor = db()) {
  return ex
    .select({ path: appFiles.path, hash: appFiles.blobHash, content: spaceBlobs.content })
    .from(appFiles)
    .innerJoin(spaceBlobs, and(eq(spaceBlobs.appId, appFiles.appId), eq(spaceBlobs.hash, appFiles.blobHash)))
    .where(eq(appFiles.appId, appId))
    .orderBy(asc(appFiles.path));
}

/** Writes and deletes current files: the difference between two states, never the whole tree. */
export async function changeAppFiles(
  appId: string,
  writes: { path: string; hash: string }[],
  deletes: string[],
  ex: Executor = db(),
): Promise<void> {
  if (deletes.length > 0) {
    await ex.delete(appFiles).where(and(eq(appFiles.appId, appId), inArray(appFiles.path, deletes)));
  }
  if (writes.length > 0) {
    await ex
      .insert(appFiles)
      .values(writes.map((w) => ({ appId, path: w.path, blobHash: w.hash })))
      .onConflictDoUpdate({
        target: [appFiles.appId, appFiles.path],
        set: { blobHash: sql`excluded.blob_hash`, updatedAt: new Date() },
      });
  }
}

// ---- versions ----

export async function nextVersionNumber(appId: string, ex: Executor = db()): Promise<number> {
  const [row] = await ex
    .select({ n: sql<number>`coalesce(max(${versions.number}), 0)::int` })
    .from(versions)
    .where(eq(versions.appId, appId));
  return (row?.n ?? 0) + 1;
}

export async function insertVersion(values: typeof versions.$inferInsert, ex: Executor = db()) {
  const [row] = await ex.insert(versions).values(values).returning();
  return row!;
}

export type VersionFileRow = { path: string; blobHash: string | null; change: FileChangeStatus | null };

export async function insertVersionFiles(
  appId: string,
  versionId: string,
  rows: VersionFileRow[],
  ex: Executor = db(),
): Promise<void> {
  // Batches keep a large full listing under PostgreSQL's 65535 parameters per statement.
  for (let i = 0; i < rows.length; i += 2000) {
    await ex.insert(versionFiles).values(rows.slice(i, i + 2000).map((r) => ({ appId, versionId, ...r })));
  }
}

export async function findVersion(
  appId: string,
  id: string,
  ex: Executor = db(),
): Promise<Version | undefined> {
  const [row] = await ex
    .select()
    .from(versions)
    .where(and(eq(versions.appId, appId), eq(versions.id, id)));
  return row;
}

/**
 * A version's tree, path -> hash: its own changes, then its parent's, and so on up to the nearest
 * full listing (at most SPACE_SNAPSHOT_INTERVAL versions away); the nearest mention of a path
 * wins, and a deletion (null hash) hides it.
 */
export async function versionTreeHashes(appId: string, versionId: string, ex: Executor = db()) {
  const result = await ex.execute<{ path: string; blob_hash: string | null }>(sql`
    with recursive chain (id, parent_id, snapshot_distance, depth) as (
      select id, parent_id, snapshot_distance, 0 from versions where app_id = ${appId} and id = ${versionId}
      union all
      select v.id, v.parent_id, v.snapshot_distance, c.depth + 1
      from chain c join versions v on v.id = c.parent_id and v.app_id = ${appId}
      where c.snapshot_distance > 0
    )
    select distinct on (vf.path) vf.path, vf.blob_hash
    from chain c join version_files vf on vf.version_id = c.id
    order by vf.path, c.depth`);
  const tree = new Map<string, string>();
  for (const row of result.rows) if (row.blob_hash !== null) tree.set(row.path, row.blob_hash);
  return tree;
}

/** The changed paths of a version (its diff against its parent). */
export async function listVersionChanges(appId: string, versionId: string, ex: Executor = db()) {
  return ex
    .select({ path: versionFiles.path, change: versionFiles.change })
    .from(versionFiles)
    .where(
      and(
        eq(versionFiles.appId, appId),
        eq(versionFiles.versionId, versionId),
        sql`${versionFiles.change} is not null`,
      ),
    )
    .orderBy(asc(versionFiles.path));
}

export async function listLatestVersions(appId: string, limit: number, ex: Executor = db()) {
  return ex
    .select()
    .from(versions)
    .where(eq(versions.appId, appId))
    .orderBy(desc(versions.number))
    .limit(limit);
}

export async function countVersions(appId: string, ex: Executor = db()): Promise<number> {
  const [row] = await ex.select({ n: count() }).from(versions).where(eq(versions.appId, appId));
  return row?.n ?? 0;
}

/** Versions numbered strictly between two numbers. */
export async function countVersionsBetween(appId: string, above: number, below: number, ex: Executor = db()) {
  const [row] = await ex
    .select({ n: count() })
    .from(versions)
    .where(and(eq(versions.appId, appId), gt(versions.number, above), lt(versions.number, below)));
  return row?.n ?? 0;
}

/**
 * The versions that changed one path (added, modified or deleted it), newest first: the `limit`
 * numbered below `beforeNumber` (the newest when null). Reads version_files_app_path_idx.
 */
export async function listPathChanges(
  appId: string,
  path: string,
  beforeNumber: number | null,
  limit: number,
  ex: Executor = db(),
): Promise<{ version: Version; change: FileChangeStatus }[]> {
  const rows = await ex
    .select({ version: versions, change: versionFiles.change })
    .from(versionFiles)
    .innerJoin(versions, and(eq(versions.id, versionFiles.versionId), eq(versions.appId, appId)))
    .where(
      and(
        eq(versionFiles.appId, appId),
        eq(versionFiles.path, path),
        sql`${versionFiles.change} is not null`,
        beforeNumber === null ? undefined : lt(versions.number, beforeNumber),
      ),
    )
    .orderBy(desc(versions.number))
    .limit(limit);
  return rows.map((r) => ({ version: r.version, change: r.change! }));
}

/**
 * One path of a version's tree, as versionTreeHashes reads the whole tree: the nearest mention of
 * the path up the version's chain. `hash` is null when the version has no such file (never had it,
 * or deleted it); `change` is how this version itself changed it (null: not in this version).
 */
export async function versionPathEntry(
  appId: string,
  versionId: string,
  path: string,
  ex: Executor = db(),
): Promise<{ hash: string | null; change: FileChangeStatus | null }> {
  const result = await ex.execute<{
    blob_hash: string | null;
    change: FileChangeStatus | null;
    depth: number;
  }>(sql`
    with recursive chain (id, parent_id, snapshot_distance, depth) as (
      select id, parent_id, snapshot_distance, 0 from versions where app_id = ${appId} and id = ${versionId}
      union all
      select v.id, v.parent_id, v.snapshot_distance, c.depth + 1
      from chain c join versions v on v.id = c.parent_id and v.app_id = ${appId}
      where c.snapshot_distance > 0
    )
    select vf.blob_hash, vf.change, c.depth
    from chain c join version_files vf on vf.version_id = c.id and vf.path = ${path}
    order by c.depth
    limit 1`);
  const row = result.rows[0];
  if (!row) return { hash: null, change: null };
  return { hash: row.blob_hash, change: row.depth === 0 ? row.change : null };
}

// ---- chat messages ----

export async function insertChatMessage(values: typeof chatMessages.$inferInsert, ex: Executor = db()) {
  const [row] = await ex.insert(chatMessages).values(values).returning();
  return row!;
}

export async function findChatMessage(
  appId: string,
  id: string,
  ex: Executor = db(),
): Promise<ChatMessage | undefined> {
  const [row] = await ex
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.appId, appId), eq(chatMessages.id, id)));
  return row;
}

export async function updateChatMessage(
  appId: string,
  id: string,
  values: Partial<typeof chatMessages.$inferInsert>,
  ex: Executor = db(),
  opts: { onlyStreaming?: boolean } = {},
): Promise<ChatMessage | undefined> {
  const [row] = await ex
    .update(chatMessages)
    .set({ ...values, updatedAt: new Date() })
    .where(
      and(
        eq(chatMessages.appId, appId),
        eq(chatMessages.id, id),
        opts.onlyStreaming ? eq(chatMessages.status, "streaming") : undefined,
      ),
    )
    .returning();
  return row;
}

/** A message with its rating and the number of its version ("Version N", as the Versions dialog says). */
export type ChatMessageWithRating = ChatMessage & { rating: Rating | null; versionNumber: number | null };

/**
 * A page of the conversation, newest first: the `limit` messages before `beforeSeq` (the newest
 * when null). Removed messages are not part of it.
 */
export async function listChatPage(
  appId: string,
  beforeSeq: number | null,
  limit: number,
  ex: Executor = db(),
): Promise<ChatMessageWithRating[]> {
  const rows = await ex
    .select({ message: chatMessages, rating: ratings, versionNumber: versions.number })
    .from(chatMessages)
    .leftJoin(ratings, eq(ratings.messageId, chatMessages.id))
    .leftJoin(versions, eq(versions.id, chatMessages.versionId))
    .where(
      and(
        eq(chatMessages.appId, appId),
        isNull(chatMessages.removedAt),
        beforeSeq === null ? undefined : lt(chatMessages.seq, beforeSeq),
      ),
    )
    .orderBy(desc(chatMessages.seq))
    .limit(limit);
  return rows.map((r) => ({ ...r.message, rating: r.rating, versionNumber: r.versionNumber }));
}

/** The messages after `seq` still in the conversation. */
export async function listLiveMessagesAfter(appId: string, seq: number, ex: Executor = db()) {
  return ex
    .select({ id: chatMessages.id, status: chatMessages.status, role: chatMessages.role })
    .from(chatMessages)
    .where(and(eq(chatMessages.appId, appId), gt(chatMessages.seq, seq), isNull(chatMessages.removedAt)))
    .orderBy(asc(chatMessages.seq));
}

/** Takes messages out of the conversation (their versions, usage and ratings stay). */
export async function removeChatMessages(appId: string, ids: string[], ex: Executor = db()) {
  if (ids.length === 0) return;
  await ex
    .update(chatMessages)
    .set({ removedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(chatMessages.appId, appId), inArray(chatMessages.id, ids)));
}

/** The last user message still in the conversation. */
export async function findLastUserMessage(appId: string, ex: Executor = db()) {
  const [row] = await ex
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.appId, appId), eq(chatMessages.role, "user"), isNull(chatMessages.removedAt)))
    .orderBy(desc(chatMessages.seq))
    .limit(1);
  return row;
}

export async function findStreamingMessage(appId: string, ex: Executor = db()) {
  const [row] = await ex
    .select()
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.appId, appId),
        eq(chatMessages.status, "streaming"),
        isNull(chatMessages.removedAt),
      ),
    );
  return row;
}

/** Answers left 'streaming' since before `before` lost their server: they end as incomplete. */
export async function endStaleStreaming(appId: string, before: Date, ex: Executor = db()) {
  await ex
    .update(chatMessages)
    .set({ status: "incomplete", updatedAt: new Date() })
    .where(
      and(
        eq(chatMessages.appId, appId),
        eq(chatMessages.status, "streaming"),
        lte(chatMessages.updatedAt, before),
      ),
    );
}

/** Whether a restore message has been undone (an undo_restore message names it). */
export async function findUndoOf(appId: string, restoreMessageId: string, ex: Executor = db()) {
  const [row] = await ex
    .select({ id: chatMessages.id })
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.appId, appId),
        eq(chatMessages.kind, "undo_restore"),
        sql`${chatMessages.systemAction}->>'revertedFromMessageId' = ${restoreMessageId}`,
      ),
    )
    .limit(1);
  return row;
}

// ---- ratings ----

/** The rating, or null when the message was rated already (one rating per message). */
export async function insertRating(values: typeof ratings.$inferInsert, ex: Executor = db()) {
  const [row] = await ex
    .insert(ratings)
    .values(values)
    .onConflictDoNothing({ target: ratings.messageId })
    .returning();
  return row ?? null;
}

// ---- the chat assistant ----

export async function findChatAssistant(
  appId: string,
  ex: Executor = db(),
): Promise<ChatAssistant | undefined> {
  const [row] = await ex.select().from(chatAssistants).where(eq(chatAssistants.appId, appId));
  return row;
}

export async function setChatAssistantStatus(
  appId: string,
  status: ChatAssistant["status"],
  ex: Executor = db(),
): Promise<ChatAssistant> {
  const [row] = await ex
    .insert(chatAssistants)
    .values({ appId, status })
    .onConflictDoUpdate({ target: chatAssistants.appId, set: { status, updatedAt: new Date() } })
    .returning();
  return row!;
}
