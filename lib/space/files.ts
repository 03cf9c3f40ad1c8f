import crypto from "node:crypto";
import { ENTITY_NAME, SPACE_FILE_MAX_BYTES, SPACE_FILES_MAX, SPACE_PATH_MAX } from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { formatMegabytes } from "@/lib/plans/features";
import type { FILE_TYPES, FileChange } from "./schemas";

// The files of a space app: their paths, kinds and contents, and what a set of changes makes of
// a tree. Pure: lib/space/commit.ts loads the current tree and stores the result.

export { ENTITY_NAME };

/** One segment of a path: letters, digits and the punctuation of file names in a web app. */
const SEGMENT = /^[A-Za-z0-9_\-.@()[\]+]+$/;

/** A relative path inside the app, `/`-separated, without `.` or `..` segments. */
export function isValidPath(path: string): boolean {
  if (path.length === 0 || path.length > SPACE_PATH_MAX) return false;
  return path.split("/").every((s) => SEGMENT.test(s) && s !== "." && s !== "..");
}

export function assertValidPath(path: string): void {
  if (!isValidPath(path))
    throw new AppError("BAD_REQUEST", { key: "spacePathInvalid", vars: { path } }, "PATH_INVALID");
}

/** Where an entity's schema lives: "Entities are read-only JSON" files. */
export function entityPath(name: string): string {
  if (!ENTITY_NAME.test(name)) {
    throw new AppError(
      "BAD_REQUEST",
      { key: "spaceEntityNameInvalid", vars: { name } },
      "ENTITY_NAME_INVALID",
    );
  }
  return `entities/${name}.json`;
}

/** The entity an entities/{Name}.json path holds, or null for any other path. */
export function entityNameOf(path: string): string | null {
  return /^entities\/([^/]+)\.json$/.exec(path)?.[1] ?? null;
}

export type FileType = (typeof FILE_TYPES)[number];

/** "App file item: name, path, type, content, language, readOnly". */
export type AppFileItem = {
  id: string;
  name: string;
  path: string;
  type: FileType;
  language: string;
  readOnly: boolean;
  content: string;
};

const FOLDER_TYPES: Record<string, FileType> = {
  pages: "pages",
  components: "components",
  services: "services",
  functions: "functions",
  entities: "entities",
};

const LANGUAGES: Record<string, string> = {
  js: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  ts: "typescript",
  tsx: "typescript",
  css: "css",
  json: "json",
  md: "markdown",
  html: "html",
};

export function fileTypeOf(path: string): FileType {
  const [first] = path.split("/");
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (path.includes("/") && first && FOLDER_TYPES[first]) return FOLDER_TYPES[first];
  if (/^layout\.\w+$/i.test(name)) return "layout";
  if (/^globals\.css$/i.test(name)) return "globals css";
  return "other";
}

export function fileItem(path: string, content: string): AppFileItem {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const ext = name.includes(".") ? name.slice(name.lastIndexOf(".") + 1).toLowerCase() : "";
  const type = fileTypeOf(path);
  return {
    id: path,
    name,
    path,
    type,
    language: LANGUAGES[ext] ?? "plaintext",
    readOnly: type === "entities",
    content,
  };
}

/** The SHA-256 of a content's UTF-8 bytes, hex: its address in space_blobs. */
export function hashContent(content: string): string {
  return crypto.createHash("sha256").update(content, "utf8").digest("hex");
}

/**
 * What a list of changes does to a tree, in order (a partial_edit may follow the add_file that
 * made its file): path -> the new content, or null for a deleted file. `contentOf` gives the
 * content of a file of the tree before the changes (only partial edits read it). Paths the
 * changes leave as they were are still listed; the caller compares hashes.
 */
export function applyChanges(
  before: ReadonlySet<string>,
  changes: FileChange[],
  contentOf: (path: string) => string | undefined,
): Map<string, string | null> {
  const out = new Map<string, string | null>();
  const current = (path: string) =>
    out.has(path) ? out.get(path)! : before.has(path) ? contentOf(path) : null;
  for (const change of changes) {
    switch (change.type) {
      case "add_file":
      case "edit_file":
        assertValidPath(change.path);
        out.set(change.path, checkSize(change.path, change.content));
        break;
      case "add_entity":
      case "edit_entity": {
        const path = entityPath(change.name);
        let parsed: unknown;
        try {
          parsed = JSON.parse(change.content);
        } catch {
          parsed = undefined;
        }
        if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
          throw new AppError(
            "BAD_REQUEST",
            { key: "spaceEntityInvalid", vars: { name: change.name } },
            "ENTITY_INVALID",
          );
        }
        out.set(path, checkSize(path, change.content));
        break;
      }
      case "partial_edit": {
        assertValidPath(change.path);
        let text = current(change.path);
        if (text === null || text === undefined) {
          throw new AppError(
            "BAD_REQUEST",
            { key: "spaceFileMissing", vars: { path: change.path } },
            "FILE_MISSING",
          );
        }
        for (const edit of change.edits) text = replaceOnce(change.path, text, edit.find, edit.replace);
        out.set(change.path, checkSize(change.path, text));
        break;
      }
      case "delete_file":
        assertValidPath(change.path);
        out.set(change.path, null);
        break;
    }
  }
  const count = before.size + [...out].filter(([p, c]) => c !== null && !before.has(p)).length;
  const removed = [...out].filter(([p, c]) => c === null && before.has(p)).length;
  if (count - removed > SPACE_FILES_MAX) {
    throw new AppError(
      "BAD_REQUEST",
      { key: "spaceTooManyFiles", vars: { n: SPACE_FILES_MAX } },
      "TOO_MANY_FILES",
    );
  }
  return out;
}

/** "partial_edit changes only the named part of a file": the part must be there, once. */
function replaceOnce(path: string, text: string, find: string, replace: string): string {
  const at = text.indexOf(find);
  if (at < 0)
    throw new AppError("BAD_REQUEST", { key: "spacePartialEditNotFound", vars: { path } }, "EDIT_NOT_FOUND");
  if (text.indexOf(find, at + 1) >= 0) {
    throw new AppError("BAD_REQUEST", { key: "spacePartialEditAmbiguous", vars: { path } }, "EDIT_AMBIGUOUS");
  }
  return text.slice(0, at) + replace + text.slice(at + find.length);
}

function checkSize(path: string, content: string): string {
  if (Buffer.byteLength(content, "utf8") > SPACE_FILE_MAX_BYTES) {
    throw new AppError(
      "BAD_REQUEST",
      { key: "spaceFileTooLarge", vars: { path, size: formatMegabytes(SPACE_FILE_MAX_BYTES) } },
      "FILE_TOO_LARGE",
    );
  }
  return content;
}
