import { and, asc, count, desc, eq, gt, lt, sql } from "drizzle-orm";
import { db, type Executor } from "../client";
import { type FileChangeStatus, type Version, versionFiles, versions } from "../schema";

// Data access of space apps' versions and their files (lib/space). Every query names the app: a
// tenant's rows are never read by id alone.

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
