"use client";

import { CameraIcon, ImageIcon, ImageUpIcon, Trash2Icon, XIcon } from "lucide-react";
import * as React from "react";
import { UploadError } from "@/components/uploads/upload-image";
import { UploadProgress } from "@/components/uploads/upload-progress";
import type { PublicField } from "@/lib/apps/public-content";
import { safeImageSrc } from "@/lib/apps/safe-link";
import { IMAGE_MAX_BYTES } from "@/lib/constants";
import { editorMessages } from "@/lib/messages/editor";
import { publicAppMessages } from "@/lib/messages/public-app";
import { shellMessages } from "@/lib/messages/shell";
import { RUN_PHOTO_ACCEPT } from "@/lib/runs/run-photo";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";
import { type PhotoTarget, uploadRunPhoto } from "./upload-run-photo";

// A photo field of a tool's public form: the end user picks a photo on their device
// (or takes one, on a phone), sees it at once, and it uploads with its progress in percent. The
// field's value is the upload's address, set only once the photo is stored; the run sends the
// photo itself to the model. A failed upload keeps the photo chosen before, and says why in the
// field's error slot. Its main button carries the field's control id: the form focuses it when
// it marks the field.

const buttonClass =
  "inline-flex h-10 items-center gap-2 rounded-md border border-border bg-background px-4 text-sm font-medium text-foreground hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-60 [&_svg]:size-4 [&_svg]:shrink-0";

/** "10 MB": the spec's limit in its own words (10,000,000 bytes). */
const MAX_SIZE = `${IMAGE_MAX_BYTES / 1_000_000} MB`;

export type PhotoPickerProps = {
  field: PublicField;
  /** The control id: the main button's; the hint and error ids are made from it. */
  id: string;
  /** The field's label, as the form shows labels (with a required field's star). */
  label: React.ReactNode;
  /** The stored photo's address ('' when none). */
  value: string;
  onChange: (value: string) => void;
  /** The form's word on this field (required, refused by the server). */
  error: string | null;
  /** Where photos go; null in the editor's preview, where nothing is uploaded. */
  target: PhotoTarget | null;
  /** Told when an upload starts and ends: the form waits for it before a run. */
  onBusyChange: (busy: boolean) => void;
  /** A photo was chosen: the form's error on the field is answered. */
  onPick: () => void;
};

type Status = { state: "idle" } | { state: "uploading"; percent: number };

export function PhotoPicker({
  field,
  id,
  label,
  value,
  onChange,
  error,
  target,
  onBusyChange,
  onPick,
}: PhotoPickerProps) {
  const pickRef = React.useRef<HTMLInputElement>(null);
  const cameraRef = React.useRef<HTMLInputElement>(null);
  const chooseRef = React.useRef<HTMLButtonElement>(null);
  const uploadRef = React.useRef<AbortController | null>(null);
  const [status, setStatus] = React.useState<Status>({ state: "idle" });
  const [uploadError, setUploadError] = React.useState<string | null>(null);
  const [announce, setAnnounce] = React.useState("");
  // The photo shown: the chosen file itself (an object URL) while it uploads and after; the
  // previous one comes back if the upload fails.
  const [shown, setShown] = React.useState<{ url: string; forValue: string } | null>(null);
  const [pending, setPending] = React.useState<string | null>(null);
  const [broken, setBroken] = React.useState(false);
  const urls = React.useRef(new Set<string>());

  // Object URLs live as long as the field; an upload still running when it goes is cancelled.
  React.useEffect(() => {
    const made = urls.current;
    return () => {
      uploadRef.current?.abort();
      for (const url of made) URL.revokeObjectURL(url);
    };
  }, []);

  const uploading = status.state === "uploading";
  React.useEffect(() => {
    if (!uploading) return;
    onBusyChange(true);
    return () => onBusyChange(false);
  }, [uploading, onBusyChange]);

  const forget = (url: string | null | undefined) => {
    if (!url) return;
    URL.revokeObjectURL(url);
    urls.current.delete(url);
  };

  async function onFile(file: File | undefined, input: HTMLInputElement | null) {
    if (input) input.value = ""; // the same file may be chosen again
    if (!file || !target) return;
    uploadRef.current?.abort();
    const controller = new AbortController();
    uploadRef.current = controller;
    const local = URL.createObjectURL(file);
    urls.current.add(local);
    setPending((old) => {
      forget(old);
      return local;
    });
    setBroken(false);
    setUploadError(null);
    onPick();
    setAnnounce("");
    setStatus({ state: "uploading", percent: 0 });
    try {
      const stored = await uploadRunPhoto(
        target,
        file,
        (percent) => setStatus({ state: "uploading", percent }),
        controller.signal,
      );
      setShown((old) => {
        if (old?.url !== local) forget(old?.url);
        return { url: local, forValue: stored.file_url };
      });
      setPending(null);
      setStatus({ state: "idle" });
      setAnnounce(publicAppMessages.publicPhotoUploaded);
      onChange(stored.file_url);
    } catch (err) {
      if (uploadRef.current !== controller) return; // a newer choice took over
      forget(local);
      setPending(null);
      setStatus({ state: "idle" });
      if (err instanceof DOMException && err.name === "AbortError") return;
      setUploadError(err instanceof UploadError ? err.message : editorMessages.uploadFailedRetry);
    } finally {
      if (uploadRef.current === controller) uploadRef.current = null;
    }
  }

  function remove() {
    forget(shown?.url);
    setShown(null);
    setUploadError(null);
    setAnnounce(publicAppMessages.publicPhotoRemoved);
    onChange("");
    // The Remove button goes away: the focus stays in the field.
    requestAnimationFrame(() => chooseRef.current?.focus());
  }

  // The chosen file while it uploads; else the stored photo (shown from the device while it is
  // the same one, from our server otherwise: a value set before this field was shown).
  const src = pending ?? (value ? (shown?.forValue === value ? shown.url : safeImageSrc(value)) : null);
  const shownError = uploadError ?? error;
  const aboutId = `${id}-about`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [field.placeholder && aboutId, hintId, shownError && errorId].filter(Boolean).join(" ");
  const percent = status.state === "uploading" ? status.percent : 0;
  const name = field.label || field.name;
  const disabled = !target;

  return (
    <fieldset id={`${id}-group`} className="grid min-w-0 gap-2">
      <legend className="mb-2 text-sm font-medium text-foreground">{label}</legend>
      {field.placeholder ? (
        <p id={aboutId} className="text-sm text-muted-foreground">
          {field.placeholder}
        </p>
      ) : null}
      <div className="flex items-center gap-3">
        <div
          className={cn(
            "flex size-20 shrink-0 items-center justify-center overflow-hidden rounded-md border border-border bg-muted",
            shownError && "border-destructive",
          )}
        >
          {src && !broken ? (
            // biome-ignore lint/performance/noImgElement: a photo from the user's device (an object URL)
            <img
              src={src}
              alt={fillTemplate(publicAppMessages.publicPhotoAlt, { label: name })}
              className="size-full object-cover"
              onError={() => setBroken(true)}
            />
          ) : (
            <ImageIcon
              role="img"
              aria-label={publicAppMessages.publicPhotoNone}
              className="size-6 text-muted-foreground"
            />
          )}
        </div>
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <input
            ref={pickRef}
            type="file"
            accept={RUN_PHOTO_ACCEPT}
            className="sr-only"
            tabIndex={-1}
            aria-hidden="true"
            onChange={(e) => void onFile(e.target.files?.[0], e.target)}
          />
          {/* On a phone, straight to the camera; the chooser above offers the camera too. */}
          <input
            ref={cameraRef}
            type="file"
            accept={RUN_PHOTO_ACCEPT}
            capture="environment"
            className="sr-only"
            tabIndex={-1}
            aria-hidden="true"
            onChange={(e) => void onFile(e.target.files?.[0], e.target)}
          />
          <button
            ref={chooseRef}
            id={id}
            type="button"
            disabled={disabled}
            aria-describedby={describedBy}
            aria-invalid={shownError ? true : undefined}
            onClick={() => pickRef.current?.click()}
            className={cn(buttonClass, shownError && "border-destructive")}
          >
            <ImageUpIcon aria-hidden="true" />
            {value ? publicAppMessages.publicPhotoReplace : publicAppMessages.publicPhotoChoose}
          </button>
          <button
            type="button"
            disabled={disabled}
            onClick={() => cameraRef.current?.click()}
            className={cn(buttonClass, "hidden pointer-coarse:inline-flex")}
          >
            <CameraIcon aria-hidden="true" />
            {publicAppMessages.publicPhotoTake}
          </button>
          {uploading ? (
            <button type="button" onClick={() => uploadRef.current?.abort()} className={buttonClass}>
              <XIcon aria-hidden="true" />
              {shellMessages.cancel}
            </button>
          ) : value ? (
            <button type="button" onClick={remove} className={buttonClass}>
              <Trash2Icon aria-hidden="true" />
              {publicAppMessages.publicPhotoRemove}
            </button>
          ) : null}
        </div>
      </div>
      <p id={hintId} className="text-xs text-muted-foreground">
        {disabled
          ? publicAppMessages.publicPhotoPreviewOnly
          : fillTemplate(publicAppMessages.publicPhotoHint, { size: MAX_SIZE })}
      </p>
      {uploading ? <UploadProgress percent={percent} /> : null}
      <p className="sr-only" aria-live="polite">
        {announce}
      </p>
      {shownError ? (
        <p id={errorId} role="alert" className="text-sm font-medium text-destructive">
          {shownError}
        </p>
      ) : null}
    </fieldset>
  );
}
