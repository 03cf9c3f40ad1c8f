"use client";

import { XIcon } from "lucide-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { messages } from "@/lib/messages";
import { FileDrop, type FileKind } from "./file-drop";
import { checkContextFile } from "./item-format";

/** Sends the file, reporting progress; resolves with the message of a failure, or null once added. */
export type SubmitFile = (
  file: File,
  onProgress: (percent: number) => void,
  signal: AbortSignal,
) => Promise<string | null>;

/**
 * A file data source (Items List (CSV) or Doc): chosen or dropped, checked against the types and
 * the plan's size before it is sent ('Please upload a file' when there is none), then uploaded
 * with its progress in percent; the upload can be cancelled.
 */
export function FileSourceForm({
  kind,
  maxBytes,
  submitLabel,
  submit,
}: {
  kind: FileKind;
  maxBytes: number;
  submitLabel: string;
  submit: SubmitFile;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const controller = useRef<AbortController | null>(null);

  // An upload still running when the form goes away (the dialog closed) is cancelled.
  useEffect(() => () => controller.current?.abort(), []);

  const choose = (chosen: File) => {
    const refused = checkContextFile(chosen, kind, maxBytes);
    setError(refused);
    setFile(refused ? null : chosen);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!file) {
      setError(messages.contextUploadFile);
      return;
    }
    const abort = new AbortController();
    controller.current = abort;
    setError(null);
    setPercent(0);
    try {
      const failure = await submit(file, setPercent, abort.signal);
      if (failure) setError(failure);
    } catch (err) {
      // Cancelled: the builder may choose again.
      if (!(err instanceof DOMException && err.name === "AbortError")) throw err;
    } finally {
      if (controller.current === abort) controller.current = null;
      setPercent(null);
    }
  };

  const uploading = percent !== null;
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <FileDrop
        kind={kind}
        file={file}
        onFile={choose}
        maxBytes={maxBytes}
        percent={percent}
        error={error}
        disabled={uploading}
      />
      <div className="flex flex-wrap justify-end gap-2">
        {uploading ? (
          <Button type="button" variant="ghost" onClick={() => controller.current?.abort()}>
            <XIcon aria-hidden="true" />
            {messages.cancel}
          </Button>
        ) : null}
        <Button type="submit" disabled={uploading}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
