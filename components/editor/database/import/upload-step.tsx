"use client";

import { useState } from "react";
import { FileDrop } from "@/components/editor/data-sources/file-drop";
import { LoadingLine } from "@/components/ui/loading-line";
import { CSV_IMPORT_BYTES_MAX } from "@/lib/constants";
import { CSV_PREVIEW_BYTES, previewCsv } from "@/lib/csv/preview";
import { messages } from "@/lib/messages";
import { formatMegabytes } from "@/lib/plans/features";
import { fillTemplate } from "@/lib/text";

export type ChosenFile = { file: File; headers: string[]; rows: Record<string, string>[] };

/**
 * The first step: a CSV file chosen or dropped, read in the browser for its headers and first
 * rows; an empty file, one without rows or one that cannot be parsed is said so here (the server
 * checks the whole file again when it is sent).
 */
export function UploadStep({
  initialError,
  onChosen,
}: {
  /** The server's reason a file sent earlier was refused. */
  initialError: string | null;
  onChosen: (chosen: ChosenFile) => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(initialError);
  const [reading, setReading] = useState(false);

  const choose = async (chosen: File) => {
    setFile(chosen);
    setError(null);
    if (chosen.size > CSV_IMPORT_BYTES_MAX) {
      setError(fillTemplate(messages.csvImportTooLarge, { size: formatMegabytes(CSV_IMPORT_BYTES_MAX) }));
      return;
    }
    setReading(true);
    try {
      const start = new Uint8Array(await chosen.slice(0, CSV_PREVIEW_BYTES).arrayBuffer());
      const preview = previewCsv(start, chosen.size <= CSV_PREVIEW_BYTES);
      if (!preview.ok) setError(messages[preview.problem]);
      else onChosen({ file: chosen, headers: preview.headers, rows: preview.rows });
    } catch {
      setError(messages.csvParseFailed);
    } finally {
      setReading(false);
    }
  };

  return (
    <div className="grid gap-3">
      <FileDrop
        kind="csv"
        file={file}
        onFile={(f) => void choose(f)}
        maxBytes={CSV_IMPORT_BYTES_MAX}
        percent={null}
        error={error}
        disabled={reading}
      />
      {reading ? <LoadingLine text={messages.csvImportReading} /> : null}
    </div>
  );
}
