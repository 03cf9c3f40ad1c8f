import { z } from "zod";
import { SPACE_PATH_MAX, VERSIONS_LIST_MAX } from "@/lib/constants";
import { storableString } from "@/lib/storable-text";
import { FileChangeStatus, VersionAnswer } from "./schemas";

// Request shapes of one file's version history (the "version history dialog per file"),
// shared by the routes, the services (lib/space/file-history.ts), the dialog and the tests.

/** A path of the app's files, exactly as stored. */
const FilePath = storableString().min(1).max(SPACE_PATH_MAX);

/** A query value the client sends empty when it has none. */
const optionalNumber = z.preprocess(
  (v) => (v === "" ? undefined : v),
  z.coerce.number().int().min(1).optional(),
);

/**
 * GET /api/apps/{appId}/files/history?path=&before=&limit=: the versions that changed `path`,
 * newest first, numbered below `before` (the newest without it). "the file version dialog loads
 * up to 50 versions": 50 a page at most, and by default.
 */
export const FileHistoryQuery = z.object({
  path: FilePath,
  before: optionalNumber,
  limit: z.coerce.number().int().min(1).max(VERSIONS_LIST_MAX).default(VERSIONS_LIST_MAX),
});
export type FileHistoryQuery = z.infer<typeof FileHistoryQuery>;

/** GET /api/apps/{appId}/versions/{versionId}/file?path=: one file of a version. */
export const VersionFileQuery = z.object({
  path: FilePath,
  /** The other side: the version's parent, or the app's current files (previousContent is then theirs). */
  against: z.enum(["parent", "current"]).default("parent"),
});
export type VersionFileQuery = z.infer<typeof VersionFileQuery>;

/** GET /api/apps/{appId}/files/history: a page of the versions that changed one file. */
export const FileHistoryAnswer = z.object({
  path: z.string(),
  /** Newest first. */
  entries: z.array(z.object({ version: VersionAnswer, change: FileChangeStatus })),
  hasMore: z.boolean(),
  /** The `before` of the next page (the oldest number listed), null when there is none. */
  nextBefore: z.number().int().nullable(),
});
export type FileHistoryPage = z.infer<typeof FileHistoryAnswer>;
export type FileHistoryEntry = FileHistoryPage["entries"][number];

/** GET /api/apps/{appId}/versions/{versionId}/file: one file as a version had it, and as the version before had it. */
export const FileAtVersionAnswer = z.object({
  version: VersionAnswer,
  path: z.string(),
  /** How this version changed the file (against=current: how it differs from the current one); null when it left it as it was. */
  change: FileChangeStatus.nullable(),
  /** The file in this version; null when the version has no such file (it deleted it). */
  content: z.string().nullable(),
  /** The file in the version before (the parent), or in the current files (against=current); null when that one had none. */
  previousContent: z.string().nullable(),
});
export type FileAtVersion = z.infer<typeof FileAtVersionAnswer>;
