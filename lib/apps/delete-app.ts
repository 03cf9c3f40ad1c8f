import "server-only";
import { deleteAppRow } from "@/db/queries/apps";
import type { App } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { deleteAppUploads } from "@/lib/uploads/upload-image";

/** DELETE /api/apps/{appId}: the app, its tools, settings, style (rows cascade) and its stored images. */
export async function deleteApp(app: App) {
  if (!(await deleteAppUploads(app.id, () => deleteAppRow(app.id))))
    throw new AppError("NOT_FOUND", "appNotFound");
  return { ok: true };
}
