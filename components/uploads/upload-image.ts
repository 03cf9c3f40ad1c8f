"use client";

import { ApiError, apiFetch } from "@/components/auth/api-client";
import { IMAGE_MAX_BYTES } from "@/lib/constants";
import { editorMessages } from "@/lib/messages/editor";
import { UploadAnswer, type UploadKind } from "@/lib/uploads/schemas";
import { progressPercent, sendWithProgress } from "./xhr-upload";

// Kept here too: the image field and its tests read it from this module.
export { progressPercent };

/** A refused or failed upload; `message` is the one to show. */
export class UploadError extends Error {
  constructor(
    message: string,
    /** The server's status; 0 when refused before sending or when the network failed. */
    readonly status: number,
  ) {
    super(message);
    this.name = "UploadError";
  }
}

/**
 * The message of a file refused before it is sent, or null: the server checks the same again,
 * by content (a PNG named .txt passes there; here a declared non-image type is refused at once,
 * saying which files are accepted: `notAnImage`).
 */
export function checkImageFile(
  file: { size: number; type: string },
  notAnImage: string = editorMessages.uploadNotAnImage,
): string | null {
  if (file.size >= IMAGE_MAX_BYTES) return editorMessages.fileTooLarge;
  if (file.type && !file.type.startsWith("image/")) return notAnImage;
  return null;
}

/**
 * The message of a failed upload answer: the server's (the spec's wording, or a storage
 * error as-is), but the spec's retry sentence when there is nothing better to say.
 */
export function uploadErrorMessage(status: number, body: unknown): string {
  if (status === 413) return editorMessages.fileTooLarge;
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  if (status === 0 || typeof error?.message !== "string" || error.code === "INTERNAL") {
    return editorMessages.uploadFailedRetry;
  }
  return error.message;
}

/**
 * Uploads an image of an app: POST /api/apps/{appId}/uploads with the file's bytes as the body,
 * reporting progress (sendWithProgress). Resolves with the stored image (its `file_url` is what
 * the app keeps); rejects with an UploadError.
 */
export function uploadImage(
  appId: string,
  file: File,
  target: { kind: UploadKind; toolId?: string },
  onProgress?: (percent: number) => void,
  signal?: AbortSignal,
): Promise<UploadAnswer> {
  const refused = checkImageFile(file);
  if (refused) return Promise.reject(new UploadError(refused, 0));
  const query = new URLSearchParams({ kind: target.kind });
  if (target.toolId) query.set("toolId", target.toolId);

  const url = `/api/apps/${encodeURIComponent(appId)}/uploads?${query}`;
  return sendWithProgress(url, file, { onProgress, signal }).then(({ status, body }) => {
    const ok = status >= 200 && status < 300 ? UploadAnswer.safeParse(body) : null;
    if (ok?.success) return ok.data;
    throw new UploadError(uploadErrorMessage(ok ? 0 : status, body), status);
  });
}

/**
 * Deletes an uploaded image from storage when the builder removes it. One that
 * is already gone counts as deleted.
 */
export async function deleteUploadedImage(appId: string, uploadId: string): Promise<void> {
  try {
    await apiFetch(`/api/apps/${encodeURIComponent(appId)}/uploads/${encodeURIComponent(uploadId)}`, {
      method: "DELETE",
    });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404 && err.message === editorMessages.fileNotFound) return;
    throw err;
  }
}
