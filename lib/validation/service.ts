import "server-only";
import { readBlobs } from "@/db/queries/space-files";
import { findVersion } from "@/db/queries/space-versions";
import type { App } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { assertSpaceApp, treeOf } from "@/lib/space/commit";
import { buildVersionPreview } from "@/lib/space/preview/service";
import type { ValidateBody, ValidationAnswer } from "@/lib/space/validate-schemas";
import { validateFiles } from "./validate";

/** A version of a space app and its files (path -> content). @throws AppError 404 */
export async function versionFiles(app: App, versionId: string) {
  assertSpaceApp(app);
  const version = await findVersion(app.id, versionId);
  if (!version) throw new AppError("NOT_FOUND", "versionNotFound");
  const tree = await treeOf(app.id, version.id);
  const contents = await readBlobs(app.id, [...new Set(tree.values())]);
  const files = new Map([...tree].map(([path, hash]) => [path, contents.get(hash) ?? ""]));
  return { version, files };
}

/**
 * POST /api/apps/{appId}/versions/{versionId}/validate: every issue of that version's files, with
 * the runtime errors the preview reported while it ran them. The build is the preview's (from its
 * cache when the version was previewed).
 */
export async function validateVersion(
  app: App,
  versionId: string,
  body: ValidateBody,
): Promise<ValidationAnswer> {
  const { version, files } = await versionFiles(app, versionId);
  return validateFiles(files, {
    build: async () => (await buildVersionPreview(app.id, version.id)).build,
    runtimeErrors: body.runtimeErrors,
  });
}
