import "server-only";
import type { z } from "zod";
import { db, type Executor } from "@/db/client";
import { type NewBlob, readBlobs } from "@/db/queries/space-files";
import {
  countVersions,
  countVersionsBetween,
  findVersion,
  listLatestVersions,
  listVersionChanges,
  versionPathEntry,
} from "@/db/queries/space-versions";
import type { App, Version } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { byPath, orderChanges } from "./change-order";
import {
  assertSpaceApp,
  type CommitMeta,
  commitTree,
  currentHead,
  currentTree,
  diffTrees,
  type Locked,
  treeOf,
  withSpaceLock,
} from "./commit";
import { type AppFileItem, applyChanges, fileItem, hashContent } from "./files";
import type {
  ChangedFileSides,
  FileChange,
  VersionDetailAnswer,
  VersionDetailQuery,
  VersionListAnswer,
} from "./schemas";
import { versionSummary } from "./views";

// Versions of a space app: applying changes (a version of only what changed), reading any
// version's files, and the version list (the latest 10 and the current one).

export type ApplyOptions = Omit<CommitMeta, "always" | "restoredFromId"> & {
  /** The revision of the files the changes were made against; another one is refused (409). */
  expectedRevision?: number;
};

/**
 * Applies changes under the app's lock and returns the version they made (null when they changed
 * nothing). Runs inside `tx` when given (it must hold the lock), else in a transaction of its own.
 */
export async function applyFileChanges(
  appId: string,
  changes: FileChange[],
  opts: ApplyOptions,
  tx?: Locked,
): Promise<Version | null> {
  if (!tx) return withSpaceLock(appId, (locked) => applyFileChanges(appId, changes, opts, locked));
  const head = await currentHead(appId, tx);
  if (opts.expectedRevision !== undefined && head.revision !== opts.expectedRevision) {
    throw new AppError("CONFLICT", "spaceStateMoved", "STATE_MOVED");
  }
  const before = await currentTree(appId, tx);
  // Partial edits read the files they change; nothing else reads contents.
  const read = changes.flatMap((c) =>
    c.type === "partial_edit" && before.has(c.path) ? [before.get(c.path)!] : [],
  );
  const contents = await readBlobs(appId, read, tx);
  const result = applyChanges(new Set(before.keys()), changes, (path) => contents.get(before.get(path)!));
  const target = new Map(before);
  const blobs: NewBlob[] = [];
  for (const [path, content] of result) {
    if (content === null) {
      target.delete(path);
      continue;
    }
    const hash = hashContent(content);
    target.set(path, hash);
    if (before.get(path) !== hash) blobs.push({ hash, content, size: Buffer.byteLength(content, "utf8") });
  }
  return commitTree(tx, appId, target, blobs, opts, { head, from: before });
}

/** The files of a tree with their contents, by path. */
export async function filesOf(
  appId: string,
  tree: Map<string, string>,
  ex: Executor = db(),
): Promise<AppFileItem[]> {
  const contents = await readBlobs(appId, [...tree.values()], ex);
  return [...tree]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, hash]) => fileItem(path, contents.get(hash) ?? ""));
}

/** The app's current files. */
export async function readCurrentFiles(app: App): Promise<AppFileItem[]> {
  assertSpaceApp(app);
  return filesOf(app.id, await currentTree(app.id));
}

export type VersionList = z.infer<typeof VersionListAnswer>;

/** GET /api/apps/{id}/versions: "the latest 10 plus the current one with an intermediate count". */
export async function listAppVersions(app: App, limit: number): Promise<VersionList> {
  assertSpaceApp(app);
  const [latest, head, total] = await Promise.all([
    listLatestVersions(app.id, limit),
    currentHead(app.id),
    countVersions(app.id),
  ]);
  const currentId = head.versionId;
  let current = latest.find((v) => v.id === currentId);
  let intermediateCount = 0;
  if (currentId && !current) {
    current = await findVersion(app.id, currentId);
    const oldestShown = latest.at(-1)!.number;
    if (current) intermediateCount = await countVersionsBetween(app.id, current.number, oldestShown);
  }
  return {
    versions: latest.map((v) => versionSummary(v, currentId)),
    current: current ? versionSummary(current, currentId) : null,
    intermediateCount,
    total,
  };
}

export type VersionDetail = z.infer<typeof VersionDetailAnswer>;

/**
 * GET /api/apps/{id}/versions/{versionId}: the version's files (unless files=none) and metadata,
 * and its changes: against its parent (what it changed, from its own rows), or against the app's
 * current files (what merging it would change, from the two trees' hashes). sides=first adds the
 * first changed file in the dialogs' order with both sides, so a dialog shows it from one answer.
 */
export async function getVersionDetail(
  app: App,
  versionId: string,
  query: Partial<VersionDetailQuery> = {},
): Promise<VersionDetail> {
  assertSpaceApp(app);
  const version = await findVersion(app.id, versionId);
  if (!version) throw new AppError("NOT_FOUND", "versionNotFound");
  const againstCurrent = query.against === "current";
  const needTree = query.files !== "none" || againstCurrent || query.sides === "first";
  const [tree, head, changes, current] = await Promise.all([
    needTree ? treeOf(app.id, version.id) : null,
    currentHead(app.id),
    againstCurrent ? null : listVersionChanges(app.id, version.id),
    againstCurrent ? currentTree(app.id) : null,
  ]);
  // Against the current files: the two trees' hashes, by path (as listVersionChanges orders them).
  const changed: VersionDetail["changes"] = (
    current ? diffTrees(current, tree!).rows.sort(byPath) : changes!
  ).map((c) => ({ path: c.path, status: c.change! }));
  const [files, firstFile] = await Promise.all([
    query.files !== "none" && tree ? filesOf(app.id, tree) : [],
    query.sides === "first" ? firstSides(app.id, version, changed, tree!, current) : undefined,
  ]);
  return {
    version: versionSummary(version, head.versionId),
    files,
    changes: changed,
    ...(firstFile === undefined ? {} : { firstFile }),
  };
}

/** The first changed file in the dialogs' order with the version's side and the other one. */
async function firstSides(
  appId: string,
  version: Version,
  changes: VersionDetail["changes"],
  tree: Map<string, string>,
  current: Map<string, string> | null,
): Promise<ChangedFileSides | null> {
  const first = orderChanges(changes)[0];
  if (!first) return null;
  const after = tree.get(first.path) ?? null;
  const before = current
    ? (current.get(first.path) ?? null)
    : version.parentId
      ? (await versionPathEntry(appId, version.parentId, first.path)).hash
      : null;
  const contents = await readBlobs(
    appId,
    [after, before].filter((h): h is string => h !== null),
  );
  return {
    path: first.path,
    status: first.status,
    content: after === null ? null : (contents.get(after) ?? ""),
    previousContent: before === null ? null : (contents.get(before) ?? ""),
  };
}
