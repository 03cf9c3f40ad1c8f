import "server-only";
import type { App, Version } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { assertSpaceApp, currentTree, withSpaceLock } from "./commit";
import { entityNameOf, hashContent } from "./files";
import type { FileChange, MergeBody } from "./schemas";
import { applyFileChanges } from "./versions";

// Merging chosen files into a space app's current ones (from a version compared with the current
// files, or a repair's result): the files sent that are new or differ become one new version, of
// kind "merge". Deletions are not merged: a file left out stays as it is.

export type MergedFiles = { version: Version; paths: string[] };

/** Applies the added and modified files among `body.files` as one version; the paths it changed. */
export async function mergeFiles(app: App, body: MergeBody, accountId: string): Promise<MergedFiles> {
  assertSpaceApp(app);
  const files = body.files.filter((f) => f.content !== null);
  if (files.length === 0) throw new AppError("BAD_REQUEST", "mergeNoFiles", "MERGE_NO_FILES");
  return withSpaceLock(app.id, async (tx) => {
    const tree = await currentTree(app.id, tx);
    const changed = files.filter((f) => tree.get(f.path) !== hashContent(f.content!));
    if (changed.length === 0) throw new AppError("BAD_REQUEST", "mergeNoChanges", "MERGE_NO_CHANGES");
    const changes: FileChange[] = changed.map((f) => {
      // An entity's schema goes through the entity change, which checks it is a JSON object.
      const entity = entityNameOf(f.path);
      return entity
        ? { type: "edit_entity", name: entity, content: f.content! }
        : { type: "add_file", path: f.path, content: f.content! };
    });
    const version = await applyFileChanges(
      app.id,
      changes,
      { kind: "merge", accountId, description: body.description?.trim() || undefined },
      tx,
    );
    if (!version) throw new AppError("BAD_REQUEST", "mergeNoChanges", "MERGE_NO_CHANGES");
    return { version, paths: changed.map((f) => f.path) };
  });
}
