import "server-only";
import { db, type Executor, lockUntilCommit } from "@/db/client";
import { endStaleStreaming, findStreamingMessage } from "@/db/queries/space-chat";
import {
  changeAppFiles,
  findHead,
  insertBlobs,
  listAppFileHashes,
  type NewBlob,
  setHead,
} from "@/db/queries/space-files";
import {
  findVersion,
  insertVersion,
  insertVersionFiles,
  nextVersionNumber,
  type VersionFileRow,
  versionTreeHashes,
} from "@/db/queries/space-versions";
import type { App, Version, VersionKind } from "@/db/schema";
import { CHAT_STREAM_STALE_MS, SPACE_SNAPSHOT_INTERVAL } from "@/lib/constants";
import { AppError } from "@/lib/errors";

// The one way the files of a space app change: under the app's lock, in one transaction, a new
// tree becomes a version that stores only the paths that differ from the current one, and the
// current files (app_files) and head move to it. Two writers at once (two tabs, a restore during
// a save) run one after the other, each on the state the other left; never interleaved.

/** A transaction holding the app's lock (withSpaceLock). */
export type Locked = Executor;

/** Runs `fn` in a transaction that holds the app's lock until it commits. */
export async function withSpaceLock<T>(appId: string, fn: (tx: Locked) => Promise<T>): Promise<T> {
  return db().transaction(async (tx) => {
    await lockUntilCommit(`space:${appId}`, tx);
    return fn(tx);
  });
}

/** Chat, versions and files are those of space apps. */
export function assertSpaceApp(app: App): void {
  if (app.type !== "space") throw new AppError("BAD_REQUEST", "spaceNotSpaceApp", "NOT_SPACE_APP");
}

/**
 * Refuses while an answer is being written: its changes are applied on the state it started
 * from. An answer whose server went away (no write for CHAT_STREAM_STALE_MS) ends as incomplete.
 */
export async function assertChatIdle(tx: Locked, appId: string): Promise<void> {
  await endStaleStreaming(appId, new Date(Date.now() - CHAT_STREAM_STALE_MS), tx);
  if (await findStreamingMessage(appId, tx)) throw new AppError("CONFLICT", "chatBusy", "CHAT_BUSY");
}

export type Tree = Map<string, string>;

/** The current version's id (null before the first) and the revision of the files. */
export async function currentHead(appId: string, ex: Executor = db()) {
  const head = await findHead(appId, ex);
  return { versionId: head?.versionId ?? null, revision: head?.revision ?? 0 };
}

export async function currentTree(appId: string, ex: Executor = db()): Promise<Tree> {
  return new Map((await listAppFileHashes(appId, ex)).map((f) => [f.path, f.hash]));
}

/** A version's tree (an empty tree for null: the app before its first version). */
export async function treeOf(appId: string, versionId: string | null, ex: Executor = db()): Promise<Tree> {
  return versionId ? versionTreeHashes(appId, versionId, ex) : new Map();
}

type Diff = { rows: VersionFileRow[]; writes: { path: string; hash: string }[]; deletes: string[] };

/** How one path changes from the hash `before` to `after` (undefined or null: no such file); null when it does not. */
export function changeOf(
  before: string | null | undefined,
  after: string | null | undefined,
): "added" | "modified" | "deleted" | null {
  if ((before ?? null) === (after ?? null)) return null;
  if (after == null) return "deleted";
  return before == null ? "added" : "modified";
}

/** What `to` changes of `from`: a row a changed path, and the writes and deletes that make it. */
export function diffTrees(from: Tree, to: Tree): Diff {
  const rows: VersionFileRow[] = [];
  const writes: { path: string; hash: string }[] = [];
  const deletes: string[] = [];
  for (const [path, hash] of to) {
    const change = changeOf(from.get(path), hash);
    if (!change) continue;
    rows.push({ path, blobHash: hash, change });
    writes.push({ path, hash });
  }
  for (const path of from.keys()) {
    if (!to.has(path)) {
      rows.push({ path, blobHash: null, change: "deleted" });
      deletes.push(path);
    }
  }
  return { rows, writes, deletes };
}

export type CommitMeta = {
  kind: VersionKind;
  messageId?: string | null;
  userRequest?: string;
  description?: string;
  accountId?: string | null;
  restoredFromId?: string | null;
  /** Make a version even when the tree does not change (a restore is a version, always). */
  always?: boolean;
};

/**
 * Makes `target` the app's files as a new version whose parent is the current one. `blobs` are
 * the contents the target needs that may not be stored yet. Null when nothing changed (and
 * `always` is not set). Must run under the app's lock.
 */
export async function commitTree(
  tx: Locked,
  appId: string,
  target: Tree,
  blobs: NewBlob[],
  meta: CommitMeta,
  /** The current head and tree, when the caller has just read them under the same lock. */
  known?: { head: { versionId: string | null }; from: Tree },
): Promise<Version | null> {
  const head = known?.head ?? (await currentHead(appId, tx));
  const from = known?.from ?? (await currentTree(appId, tx));
  const diff = diffTrees(from, target);
  if (diff.rows.length === 0 && !meta.always) return null;

  const parent = head.versionId ? await findVersion(appId, head.versionId, tx) : undefined;
  const distance = parent ? parent.snapshotDistance + 1 : 0;
  // A full listing every SNAPSHOT_INTERVAL versions bounds the walk of versionTreeHashes.
  const full = distance === 0 || distance >= SPACE_SNAPSHOT_INTERVAL;
  const written = new Set(diff.writes.map((w) => w.hash));
  await insertBlobs(appId, dedupe(blobs.filter((b) => written.has(b.hash))), tx);
  const counts = { added: 0, modified: 0, deleted: 0 };
  for (const row of diff.rows) counts[row.change!] += 1;
  const version = await insertVersion(
    {
      appId,
      number: await nextVersionNumber(appId, tx),
      parentId: head.versionId,
      messageId: meta.messageId ?? null,
      kind: meta.kind,
      restoredFromId: meta.restoredFromId ?? null,
      userRequest: meta.userRequest ?? "",
      description: meta.description ?? "",
      metadata: { ...counts, ...(meta.restoredFromId ? { restoredFromVersionId: meta.restoredFromId } : {}) },
      snapshotDistance: full ? 0 : distance,
      fileCount: target.size,
      createdByAccountId: meta.accountId ?? null,
    },
    tx,
  );
  const rows: VersionFileRow[] = full
    ? [
        // Deletions stay listed (null hashes hide nothing below a full listing): the diff is whole.
        ...diff.rows,
        ...[...target]
          .filter(([p, h]) => from.get(p) === h)
          .map(([path, hash]) => ({ path, blobHash: hash, change: null })),
      ]
    : diff.rows;
  await insertVersionFiles(appId, version.id, rows, tx);
  await changeAppFiles(appId, diff.writes, diff.deletes, tx);
  await setHead(appId, version.id, tx);
  return version;
}

/**
 * Makes an existing version (or none: no files) the current one without a new version: a revert
 * or a retry goes back to a state the history already holds. Must run under the app's lock.
 */
export async function moveHead(tx: Locked, appId: string, versionId: string | null): Promise<void> {
  const head = await currentHead(appId, tx);
  if (head.versionId === versionId) return;
  const diff = diffTrees(await currentTree(appId, tx), await treeOf(appId, versionId, tx));
  await changeAppFiles(appId, diff.writes, diff.deletes, tx);
  await setHead(appId, versionId, tx);
}

function dedupe(blobs: NewBlob[]): NewBlob[] {
  const seen = new Map<string, NewBlob>();
  for (const b of blobs) seen.set(b.hash, b);
  return [...seen.values()];
}
