import "server-only";
import crypto from "node:crypto";
import { findTool } from "@/db/queries/apps";
import {
  deleteToolUploadRows,
  deleteUploadRow,
  findUploadByKey,
  findUploadOfApp,
  listAppUploadKeys,
  upsertUpload,
} from "@/db/queries/uploads";
import type { App, Upload } from "@/db/schema";
import { IMAGE_MAX_BYTES } from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { logError } from "@/lib/log";
import { isValidKey, StorageError, storage } from "@/lib/storage";
import { detectImageType } from "./image-type";
import { FILES_PATH, type UploadAnswer, type UploadKind, type UploadQuery } from "./schemas";

/**
 * The storage key of an image: option icons under .../options/, a tool's thumbnail
 * at the fixed .../tools/{toolId}/thumb (a new one replaces it), logos and backgrounds in
 * folders of their own. The account is the app owner's.
 */
export function uploadKey(
  app: Pick<App, "id" | "ownerAccountId">,
  kind: UploadKind,
  id: string,
  ext: string,
  toolId?: string,
): string {
  const base = `accounts/${app.ownerAccountId}/apps/${app.id}`;
  if (kind === "thumb") return `${base}/tools/${toolId}/thumb`;
  const folder = kind === "option" ? "options" : kind;
  return `${base}/${folder}/${id}.${ext}`;
}

/**
 * The URL of an upload, as the app's content stores it: same-origin and relative, so a move to
 * another domain (or the e2e server's port) keeps every image working. Its `v` is the upload's
 * id, so a replaced file gets a new URL.
 */
export function fileUrl(upload: Pick<Upload, "id" | "key">): string {
  return `${FILES_PATH}${upload.key}?v=${upload.id}`;
}

const answer = (u: Upload): UploadAnswer => ({
  id: u.id,
  file_url: fileUrl(u),
  key: u.key,
  contentType: u.contentType,
  size: u.size,
});

/** Stores an uploaded image of an app, if its bytes are one of the accepted image types. */
export async function uploadImage(app: App, query: UploadQuery, bytes: Uint8Array): Promise<UploadAnswer> {
  // The route's body cap refuses these first; this keeps the rule true for any other caller.
  if (bytes.byteLength >= IMAGE_MAX_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", "fileTooLarge");
  const type = detectImageType(bytes);
  if (!type) throw new AppError("BAD_REQUEST", "uploadNotAnImage", "upload/not-an-image");
  if (query.toolId && !(await findTool(app.id, query.toolId)))
    throw new AppError("NOT_FOUND", "toolNotFound");

  const id = crypto.randomUUID();
  const key = uploadKey(app, query.kind, id, type.ext, query.toolId);
  await inStorage(() => storage().put(key, bytes, type.mime));
  try {
    const row = await upsertUpload({
      id,
      appId: app.id,
      accountId: app.ownerAccountId,
      kind: query.kind,
      toolId: query.toolId ?? null,
      key,
      contentType: type.mime,
      size: bytes.byteLength,
    });
    return answer(row);
  } catch (err) {
    // Not recorded (the app was deleted meanwhile, ...): a key of its own is not left behind.
    // A thumbnail's fixed key already holds the new image; its old row still points at it.
    if (query.kind !== "thumb") await deleteStoredObjects([key]);
    throw err;
  }
}

/** Deletes an image of an app: the stored object, then its row ("Removal also goes to storage"). */
export async function deleteUpload(app: App, uploadId: string): Promise<void> {
  const upload = isUuid(uploadId) ? await findUploadOfApp(app.id, uploadId) : undefined;
  if (!upload) throw new AppError("NOT_FOUND", "fileNotFound");
  // A storage failure keeps the row, so the removal can be tried again.
  await inStorage(() => storage().delete(upload.key));
  await deleteUploadRow(app.id, upload.id);
}

/** The upload recorded at a key, for serving it; 404 for anything else. */
export async function findServedUpload(key: string): Promise<Upload> {
  const upload = isValidKey(key) ? await findUploadByKey(key) : undefined;
  if (!upload) throw new AppError("NOT_FOUND", "fileNotFound");
  return upload;
}

/** The stored object of an upload; 404 if the storage has lost it. */
export async function openUpload(upload: Upload) {
  const object = await inStorage(() => storage().get(upload.key));
  if (!object) throw new AppError("NOT_FOUND", "fileNotFound");
  return object;
}

/**
 * Deletes an app together with its stored images. The keys are listed first, because
 * `deleteApp` (which deletes the app row) takes the upload rows with it (they cascade); the
 * objects are deleted once the app is gone. A failed object deletion is logged, not thrown:
 * the app is deleted either way.
 *
 *     await deleteAppUploads(app.id, () => deleteAppRow(app.id));
 */
export async function deleteAppUploads<T>(appId: string, deleteApp: () => Promise<T>): Promise<T> {
  const keys = await listAppUploadKeys(appId);
  const result = await deleteApp();
  await deleteStoredObjects(keys);
  return result;
}

/** After a tool is deleted: its images' rows (they do not cascade with the tool) and objects. */
export async function deleteToolUploads(appId: string, toolId: string): Promise<void> {
  await deleteStoredObjects(await deleteToolUploadRows(appId, toolId));
}

const DELETE_PARALLEL = 4;

/** Deletes objects, a few at a time; failures are logged (their rows are already gone). */
export async function deleteStoredObjects(keys: string[]): Promise<void> {
  const queue = [...keys];
  const worker = async () => {
    for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
      await storage()
        .delete(key)
        .catch((err) => logError("stored object not deleted", { key, err }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(DELETE_PARALLEL, keys.length) }, worker));
}

/** Runs a storage call; a failure reaches the user in the storage's own words, and the log. */
export async function inStorage<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (!(err instanceof StorageError)) throw err;
    logError("storage failed", { err: err.cause ?? err });
    throw new AppError("INTERNAL", err.userMessage, "STORAGE_ERROR");
  }
}
