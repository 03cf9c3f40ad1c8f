import "server-only";
import { readBlobs } from "@/db/queries/space-files";
import type { App } from "@/db/schema";
import type { Session } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import type {
  CodeFile,
  CodeFiles,
  DeleteFileBody,
  DeleteFileResult,
  UpdateFileBody,
  UpdateFileResult,
} from "./code-schemas";
import { assertSpaceApp, currentHead, currentTree, type Locked, withSpaceLock } from "./commit";
import { assertValidPath, fileItem, hashContent } from "./files";
import type { FileChange } from "./schemas";
import { applyFileChanges, filesOf } from "./versions";

// The Code panel's files: the current files with their revisions, and the saves and deletes an
// admin makes in the editor. Each save or delete is one version of kind "edit", written by the one
// writer of versions (applyFileChanges); a save names the revision (the content's hash) it was
// typed over, and one that lost to a change made meanwhile (the chat, another tab) is refused
// with the file as it is now, so the editor can show both and lose neither.

/** "Admin (isAdmin): only role that can edit, save, delete ... code. Others see the editor read-only." */
export function canEditCode(session: Pick<Session, "account">): boolean {
  return !!session.account?.isAdmin;
}

function assertCanEditCode(session: Pick<Session, "account">): void {
  if (!canEditCode(session)) throw new AppError("FORBIDDEN", "codeEditAdminOnly", "CODE_ADMIN_ONLY");
}

/** Entities are read-only JSON: neither edited nor deleted here. */
function assertWritable(path: string): void {
  assertValidPath(path);
  if (fileItem(path, "").readOnly) {
    throw new AppError("FORBIDDEN", { key: "codeFileReadOnly", vars: { path } }, "FILE_READ_ONLY");
  }
}

const codeFile = (path: string, content: string): CodeFile => ({
  ...fileItem(path, content),
  revision: hashContent(content),
});

/** GET /api/apps/{appId}/files. */
export async function listCodeFiles(app: App, session: Session): Promise<CodeFiles> {
  assertSpaceApp(app);
  const [head, tree] = await Promise.all([currentHead(app.id), currentTree(app.id)]);
  const files = await filesOf(app.id, tree);
  return {
    versionId: head.versionId,
    canEdit: canEditCode(session),
    files: files.map((f) => ({ ...f, revision: tree.get(f.path)! })),
  };
}

/** The current content of a file of the tree, or a 404 when it has none. */
async function currentContent(tx: Locked, appId: string, tree: Map<string, string>, path: string) {
  const hash = tree.get(path);
  if (hash === undefined) {
    throw new AppError("NOT_FOUND", { key: "spaceFileMissing", vars: { path } }, "FILE_MISSING");
  }
  const content = (await readBlobs(appId, [hash], tx)).get(hash) ?? "";
  return { hash, content };
}

/** The 409 of a save or delete that lost: the file as it is now rides along. */
function changedMeanwhile(path: string, content: string, revision: string): AppError {
  return new AppError("CONFLICT", { key: "codeFileChanged", vars: { path } }, "FILE_CHANGED", {
    current: { path, content, revision },
  });
}

/** POST /api/apps/{appId}/files/update. */
export async function updateCodeFile(
  app: App,
  session: Session,
  body: UpdateFileBody,
): Promise<UpdateFileResult> {
  assertSpaceApp(app);
  assertCanEditCode(session);
  const { id: path, content } = body.file;
  assertWritable(path);
  return withSpaceLock(app.id, async (tx) => {
    const tree = await currentTree(app.id, tx);
    const now = await currentContent(tx, app.id, tree, path);
    // The file already holds what is sent (a retry, a save of the same text from another tab): done.
    if (now.hash === hashContent(content)) return { file: codeFile(path, content), versionId: null };
    if (now.hash !== body.revision) throw changedMeanwhile(path, now.content, now.hash);
    const version = await applyFileChanges(
      app.id,
      [{ type: "edit_file", path, content }],
      {
        kind: "edit",
        accountId: session.account?.accountId ?? null,
        description: fillTemplate(messages.codeVersionEdited, { path }),
      },
      tx,
    );
    return { file: codeFile(path, content), versionId: version?.id ?? null };
  });
}

/** POST /api/apps/{appId}/files/delete: the file, and the files that imported it as confirmed. */
export async function deleteCodeFile(
  app: App,
  session: Session,
  body: DeleteFileBody,
): Promise<DeleteFileResult> {
  assertSpaceApp(app);
  assertCanEditCode(session);
  const path = body.fileId;
  assertWritable(path);
  const references = body.referencesToUpdate ?? [];
  const seen = new Set<string>([path]);
  for (const r of references) {
    assertWritable(r.path);
    if (seen.has(r.path)) {
      throw new AppError(
        "BAD_REQUEST",
        { key: "codeReferenceInvalid", vars: { path: r.path } },
        "REFERENCE_INVALID",
      );
    }
    seen.add(r.path);
  }
  return withSpaceLock(app.id, async (tx) => {
    const tree = await currentTree(app.id, tx);
    const now = await currentContent(tx, app.id, tree, path);
    if (body.revision !== undefined && now.hash !== body.revision) {
      throw changedMeanwhile(path, now.content, now.hash);
    }
    for (const r of references) {
      // Only files that exist are updated: a delete adds none.
      const hash = tree.get(r.path);
      if (hash === undefined) {
        throw new AppError("NOT_FOUND", { key: "spaceFileMissing", vars: { path: r.path } }, "FILE_MISSING");
      }
      if (r.revision !== undefined && hash !== r.revision) {
        const theirs = await currentContent(tx, app.id, tree, r.path);
        throw changedMeanwhile(r.path, theirs.content, theirs.hash);
      }
    }
    const changes: FileChange[] = [
      { type: "delete_file", path },
      ...references.map((r): FileChange => ({ type: "edit_file", path: r.path, content: r.content })),
    ];
    const version = await applyFileChanges(
      app.id,
      changes,
      {
        kind: "edit",
        accountId: session.account?.accountId ?? null,
        description: fillTemplate(messages.codeVersionDeleted, { path }),
      },
      tx,
    );
    return {
      deleted: path,
      updated: references.map((r) => codeFile(r.path, r.content)),
      versionId: version!.id,
    };
  });
}
