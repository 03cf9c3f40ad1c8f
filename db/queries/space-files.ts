import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { db, type Executor } from "../client";
import { appFiles, spaceBlobs, spaceHeads } from "../schema";

// Data access of space apps' files (lib/space): the blobs and the current state. Every query names
// the app: a tenant's rows are never read by id alone.

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

/** One current file's hash; null when the app has no such file. */
export async function currentFileHash(
  appId: string,
  path: string,
  ex: Executor = db(),
): Promise<string | null> {
  const [row] = await ex
    .select({ hash: appFiles.blobHash })
    .from(appFiles)
    .where(and(eq(appFiles.appId, appId), eq(appFiles.path, path)));
  return row?.hash ?? null;
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
