import { z } from "zod";
import { SPACE_PATH_MAX, VERSIONS_LIST_MAX } from "@/lib/constants";
import { storableString } from "@/lib/storable-text";

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
export const VersionFileQuery = z.object({ path: FilePath });
export type VersionFileQuery = z.infer<typeof VersionFileQuery>;
