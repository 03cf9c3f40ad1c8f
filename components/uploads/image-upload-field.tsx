"use client";

import { ImageIcon, ImageUpIcon, Trash2Icon, XIcon } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { ApiError } from "@/components/auth/api-client";
import { Button } from "@/components/ui/button";
import { ProgressBar } from "@/components/ui/progress-bar";
import { authMessages } from "@/lib/messages/auth";
import { editorMessages } from "@/lib/messages/editor";
import { shellMessages } from "@/lib/messages/shell";
import { fillTemplate } from "@/lib/text";
import { type UploadKind, uploadIdFromUrl } from "@/lib/uploads/schemas";
import { cn } from "@/lib/utils";
import { deleteUploadedImage, UploadError, uploadImage } from "./upload-image";

/**
 * An image setting of the editor (logo, background image, option icon, tool thumbnail): the
 * current image, a button to choose a file, the upload's progress in percent, a remove button
 * and the error of a failed upload. The states: idle, uploading with
 * progress percent, done or failed.
 *
 * Props:
 * - `label`: the field's visible name, e.g. "Logo".
 * - `value`: the image's URL as the app stores it (the `file_url` of an upload), or null.
 * - `onChange(url, uploadId?)`: called with the new URL and its upload id after an upload, and
 *   with null after a removal (the stored object is deleted first, "Removal also goes to storage").
 *   The caller saves the app; replacing an image leaves the old object alone, so a save that
 *   fails never points at a deleted file (deleting the app deletes them all).
 * - `appId`, `kind` ("logo" | "background" | "option" | "thumb"), `toolId` (needed for "thumb",
 *   optional for "option"): where the image is stored.
 * - `description`: an optional hint under the label; `disabled`; `className` for the outer box.
 */
export type ImageUploadFieldProps = {
  label: string;
  value: string | null;
  onChange: (url: string | null, uploadId?: string) => void;
  appId: string;
  kind: UploadKind;
  toolId?: string;
  description?: string;
  disabled?: boolean;
  className?: string;
};

type Status =
  | { state: "idle" }
  | { state: "uploading"; percent: number }
  | { state: "done" }
  | { state: "failed" };

export function ImageUploadField({
  label,
  value,
  onChange,
  appId,
  kind,
  toolId,
  description,
  disabled,
  className,
}: ImageUploadFieldProps) {
  const ids = useId();
  const hintId = `${ids}-hint`;
  const inputRef = useRef<HTMLInputElement>(null);
  const uploadRef = useRef<AbortController | null>(null);
  const [status, setStatus] = useState<Status>({ state: "idle" });
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);

  // An upload still running when the field goes away is cancelled.
  useEffect(() => () => uploadRef.current?.abort(), []);

  const uploading = status.state === "uploading";
  const busy = uploading || removing || disabled;

  const onFile = async (file: File | undefined) => {
    if (inputRef.current) inputRef.current.value = ""; // the same file may be chosen again
    if (!file) return;
    const controller = new AbortController();
    uploadRef.current = controller;
    setError(null);
    setStatus({ state: "uploading", percent: 0 });
    try {
      const uploaded = await uploadImage(
        appId,
        file,
        { kind, toolId },
        (percent) => setStatus({ state: "uploading", percent }),
        controller.signal,
      );
      setStatus({ state: "done" });
      onChange(uploaded.file_url, uploaded.id);
    } catch (err) {
      if (err instanceof DOMException && err.name === "AbortError") {
        setStatus({ state: "idle" });
        return;
      }
      setStatus({ state: "failed" });
      setError(err instanceof UploadError ? err.message : editorMessages.uploadFailedRetry);
    } finally {
      if (uploadRef.current === controller) uploadRef.current = null;
    }
  };

  const onRemove = async () => {
    if (!value) return;
    const uploadId = uploadIdFromUrl(value);
    setError(null);
    setRemoving(true);
    try {
      // An image that is not one of our uploads (an older URL) has nothing to delete.
      if (uploadId) await deleteUploadedImage(appId, uploadId);
      setStatus({ state: "idle" });
      onChange(null);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : authMessages.internal);
    } finally {
      setRemoving(false);
    }
  };

  const percent = status.state === "uploading" ? status.percent : 0;

  return (
    <fieldset
      aria-describedby={description ? hintId : undefined}
      disabled={disabled}
      className={cn("m-0 grid min-w-0 gap-2 border-0 p-0", className)}
    >
      <legend className="mb-2 p-0 text-sm font-medium leading-none">{label}</legend>
      {description ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          {description}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <div className="flex size-16 shrink-0 items-center justify-center overflow-hidden rounded-md border border-border bg-muted">
          {value ? (
            // biome-ignore lint/performance/noImgElement: an uploaded image of any type (SVG too), shown as stored
            <img src={value} alt={label} className="size-full object-contain" />
          ) : (
            <ImageIcon
              aria-label={editorMessages.imageNone}
              role="img"
              className="size-6 text-muted-foreground"
            />
          )}
        </div>
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <input
            ref={inputRef}
            type="file"
            accept="image/*"
            className="sr-only"
            tabIndex={-1}
            aria-hidden="true"
            onChange={(e) => void onFile(e.target.files?.[0])}
          />
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={busy}
            aria-describedby={description ? hintId : undefined}
            onClick={() => inputRef.current?.click()}
          >
            <ImageUpIcon aria-hidden="true" />
            {value ? editorMessages.imageReplace : editorMessages.imageChoose}
          </Button>
          {uploading ? (
            <Button type="button" variant="ghost" size="sm" onClick={() => uploadRef.current?.abort()}>
              <XIcon aria-hidden="true" />
              {shellMessages.cancel}
            </Button>
          ) : value ? (
            <Button type="button" variant="ghost" size="sm" disabled={busy} onClick={() => void onRemove()}>
              <Trash2Icon aria-hidden="true" />
              {editorMessages.imageRemove}
            </Button>
          ) : null}
        </div>
      </div>
      {uploading ? (
        <div className="grid gap-1">
          <ProgressBar
            label={label}
            percent={percent}
            text={fillTemplate(editorMessages.imageUploading, { percent })}
          />
          <p className="text-xs text-muted-foreground" aria-hidden="true">
            {fillTemplate(editorMessages.imageUploading, { percent })}
          </p>
        </div>
      ) : null}
      <p className="sr-only" aria-live="polite">
        {status.state === "done" ? editorMessages.imageUploaded : ""}
      </p>
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
