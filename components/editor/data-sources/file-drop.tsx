"use client";

import { FileUpIcon } from "lucide-react";
import { type DragEvent, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { UploadProgress } from "@/components/uploads/upload-progress";
import { messages } from "@/lib/messages";
import { formatMegabytes } from "@/lib/plans/features";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";
import { FILE_ACCEPT, formatBytes } from "./item-format";

export type FileKind = "csv" | "doc";

/**
 * A file chooser that also takes a file dropped on it: the chosen file's name and size, the
 * accepted types and the plan's maximum, the upload's progress in percent while it runs, and the
 * error (read with the button). The caller checks and sends the file.
 */
export function FileDrop({
  kind,
  file,
  onFile,
  maxBytes,
  percent,
  error,
  disabled,
}: {
  kind: FileKind;
  file: File | null;
  onFile: (file: File) => void;
  maxBytes: number;
  /** The upload's progress while it runs; null otherwise. */
  percent: number | null;
  error: string | null;
  disabled?: boolean;
}) {
  const ids = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const hintId = `${ids}-hint`;
  const errorId = `${ids}-error`;
  const chosenId = `${ids}-chosen`;

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const dropped = e.dataTransfer.files?.[0];
    if (dropped && !disabled) onFile(dropped);
  };

  const types = kind === "csv" ? messages.dataSourceFileTypesCsv : messages.dataSourceFileTypesDoc;
  const describedBy = [file ? chosenId : null, hintId, error ? errorId : null].filter(Boolean).join(" ");

  return (
    <div className="grid gap-2">
      {/* The drop zone is for the mouse; the button is the way in for keyboards and screen readers. */}
      <section
        aria-label={messages.dataSourceFileLabel}
        onDragOver={(e) => {
          e.preventDefault();
          if (!disabled) setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        data-testid="file-drop"
        className={cn(
          "grid justify-items-center gap-2 rounded-lg border border-dashed border-border px-4 py-6 text-center transition-colors",
          over && "border-primary bg-accent",
          error && "border-destructive",
        )}
      >
        <FileUpIcon aria-hidden="true" className="size-6 text-muted-foreground" />
        <p className="text-sm text-muted-foreground">{messages.dataSourceFileDrop}</p>
        <input
          ref={inputRef}
          type="file"
          accept={FILE_ACCEPT[kind]}
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(e) => {
            const chosen = e.target.files?.[0];
            e.target.value = ""; // the same file may be chosen again
            if (chosen) onFile(chosen);
          }}
        />
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={disabled}
          aria-describedby={describedBy}
          onClick={() => inputRef.current?.click()}
        >
          {file ? messages.dataSourceFileChooseOther : messages.dataSourceFileChoose}
        </Button>
        {file ? (
          <p id={chosenId} className="max-w-full truncate text-sm font-medium">
            {fillTemplate(messages.dataSourceFileChosen, { name: file.name, size: formatBytes(file.size) })}
          </p>
        ) : null}
        <p id={hintId} className="text-xs text-muted-foreground">
          {fillTemplate(messages.dataSourceFileMax, { types, size: formatMegabytes(maxBytes) })}
        </p>
      </section>
      {percent !== null ? <UploadProgress percent={percent} /> : null}
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
