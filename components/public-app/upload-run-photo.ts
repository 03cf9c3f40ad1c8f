"use client";

import { checkImageFile, UploadError, uploadErrorMessage } from "@/components/uploads/upload-image";
import { sendWithProgress } from "@/components/uploads/xhr-upload";
import { runsMessages } from "@/lib/messages/runs";
import { RunPhotoAnswer } from "@/lib/runs/run-photo";

/** Where a tool's photos go: the app, and the tool of a generated app (null for a single-tool app). */
export type PhotoTarget = { appId: string; toolId: string | null };

/**
 * Uploads a photo for a run: POST /api/apps/{appId}/run/photos with the file's bytes, reporting
 * progress in percent. Resolves with the stored photo (its `file_url` is the field's value);
 * rejects with an UploadError carrying the message to show, or an AbortError when cancelled.
 */
export function uploadRunPhoto(
  target: PhotoTarget,
  file: File,
  onProgress: (percent: number) => void,
  signal: AbortSignal,
): Promise<RunPhotoAnswer> {
  const refused = checkImageFile(file, runsMessages.runPhotoType);
  if (refused) return Promise.reject(new UploadError(refused, 0));
  const query = target.toolId ? `?${new URLSearchParams({ toolId: target.toolId })}` : "";
  const url = `/api/apps/${encodeURIComponent(target.appId)}/run/photos${query}`;
  return sendWithProgress(url, file, { onProgress, signal }).then(({ status, body }) => {
    const ok = status >= 200 && status < 300 ? RunPhotoAnswer.safeParse(body) : null;
    if (ok?.success) return ok.data;
    throw new UploadError(uploadErrorMessage(ok ? 0 : status, body), status);
  });
}
