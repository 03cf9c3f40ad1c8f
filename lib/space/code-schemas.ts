import { z } from "zod";
import { DELETE_REFERENCES_MAX, SPACE_FILE_MAX_BYTES, SPACE_PATH_MAX } from "@/lib/constants";
import { storableString } from "@/lib/storable-text";
import { AppFileAnswer } from "./schemas";

// Request and answer shapes of the Code panel's routes (the file list, a save, a delete), shared
// by the routes, the service (lib/space/code-files.ts), the panel and the tests.

/** A path of the app's files, as the file item's id. */
const FilePath = storableString().min(1).max(SPACE_PATH_MAX);
/** A file's whole content: its size in bytes is checked by the service (a character may be 4). */
const Content = storableString().max(SPACE_FILE_MAX_BYTES);
/**
 * The revision of a file the editor loaded: the SHA-256 of its content, as the file list and
 * every save answer it. A save against another one lost to a change made meanwhile (409).
 */
const Revision = z.string().regex(/^[0-9a-f]{64}$/);

const EXAMPLE_REVISION = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

/** A file of the Code panel: the app file item with its revision. */
export const CodeFileAnswer = AppFileAnswer.extend({ revision: z.string() });
export type CodeFile = z.infer<typeof CodeFileAnswer>;

/** GET /api/apps/{appId}/files: the app's current files, and whether the caller may edit them. */
export const CodeFilesAnswer = z.object({
  /** The current version; null before the first. */
  versionId: z.uuid().nullable(),
  /** Admins edit code; everyone else reads it. */
  canEdit: z.boolean(),
  files: z.array(CodeFileAnswer),
});
export type CodeFiles = z.infer<typeof CodeFilesAnswer>;

/** POST /api/apps/{appId}/files/update: "file {id, content}", and the revision it edits. */
export const UpdateFileBody = z
  .object({
    file: z.object({ id: FilePath, content: Content }),
    revision: Revision,
  })
  .meta({
    examples: [
      {
        file: {
          id: "pages/Home.jsx",
          content: "export default function Home() {\n  return <main>Hi</main>;\n}\n",
        },
        revision: EXAMPLE_REVISION,
      },
    ],
  });
export type UpdateFileBody = z.infer<typeof UpdateFileBody>;

/** The file as saved and the version the save made (null when the content was already that). */
export const UpdateFileAnswer = z.object({
  file: CodeFileAnswer,
  versionId: z.uuid().nullable(),
});
export type UpdateFileResult = z.infer<typeof UpdateFileAnswer>;

/** A file that imported the deleted one, as the builder confirmed it (its import lines removed). */
const ReferenceUpdate = z.object({ path: FilePath, content: Content, revision: Revision.optional() });

/** POST /api/apps/{appId}/files/delete: "fileId, referencesToUpdate [{path, content}]". */
export const DeleteFileBody = z
  .object({
    fileId: FilePath,
    /** The revision of the file the builder chose to delete; another one is a 409. */
    revision: Revision.optional(),
    referencesToUpdate: z.array(ReferenceUpdate).max(DELETE_REFERENCES_MAX).default([]),
  })
  .meta({
    examples: [
      {
        fileId: "components/Banner.jsx",
        referencesToUpdate: [
          {
            path: "pages/Home.jsx",
            content: "export default function Home() {\n  return <main>Hi</main>;\n}\n",
          },
        ],
      },
    ],
  });
export type DeleteFileBody = z.input<typeof DeleteFileBody>;

/** The path deleted, the files updated with it, and the version made. */
export const DeleteFileAnswer = z.object({
  deleted: z.string(),
  updated: z.array(CodeFileAnswer),
  versionId: z.uuid(),
});
export type DeleteFileResult = z.infer<typeof DeleteFileAnswer>;
