import "server-only";
import { currentFileHash, readBlobs } from "@/db/queries/space-files";
import { findVersion, listPathChanges, versionPathEntry } from "@/db/queries/space-versions";
import type { App } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { assertSpaceApp, changeOf, currentHead } from "./commit";
import type {
  FileAtVersion,
  FileHistoryEntry,
  FileHistoryPage,
  FileHistoryQuery,
} from "./file-history-schemas";
import { versionSummary } from "./views";

// One file's history (the "version history dialog per file"): the versions that added,
// modified or deleted it, read from their own rows of version_files (never from whole trees), and
// the file as one version had it, without the version's other files.

export type { FileAtVersion, FileHistoryEntry, FileHistoryPage };

/** GET /api/apps/{appId}/files/history: a page of the versions that changed one file. */
export async function listFileHistory(app: App, query: FileHistoryQuery): Promise<FileHistoryPage> {
  assertSpaceApp(app);
  const [rows, head] = await Promise.all([
    listPathChanges(app.id, query.path, query.before ?? null, query.limit + 1),
    currentHead(app.id),
  ]);
  const page = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  return {
    path: query.path,
    entries: page.map((r) => ({ version: versionSummary(r.version, head.versionId), change: r.change })),
    hasMore,
    nextBefore: hasMore ? page.at(-1)!.version.number : null,
  };
}

/**
 * GET /api/apps/{appId}/versions/{versionId}/file?path=: one file as a version had it, and as the
 * version before had it (its changes), or as the app's current files have it (against=current:
 * what merging the version would change). A path neither side has (nor the version deleted) is not found.
 */
export async function getFileAtVersion(
  app: App,
  versionId: string,
  path: string,
  against: "parent" | "current" = "parent",
): Promise<FileAtVersion> {
  assertSpaceApp(app);
  const version = await findVersion(app.id, versionId);
  if (!version) throw new AppError("NOT_FOUND", "versionNotFound");
  const [entry, before, head] = await Promise.all([
    versionPathEntry(app.id, version.id, path),
    against === "current"
      ? currentFileHash(app.id, path).then((hash) => ({ hash }))
      : version.parentId
        ? versionPathEntry(app.id, version.parentId, path)
        : null,
    currentHead(app.id),
  ]);
  const change = against === "parent" ? entry.change : changeOf(before?.hash, entry.hash);
  if (entry.hash === null && change !== "deleted") throw new AppError("NOT_FOUND", "fileNotFound");
  const hashes = [entry.hash, before?.hash].filter((h): h is string => !!h);
  const contents = await readBlobs(app.id, hashes);
  return {
    version: versionSummary(version, head.versionId),
    path,
    change,
    content: entry.hash === null ? null : (contents.get(entry.hash) ?? ""),
    previousContent: before?.hash ? (contents.get(before.hash) ?? "") : null,
  };
}
