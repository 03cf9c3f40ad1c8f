"use client";

import { DownloadIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ProgressBar } from "@/components/ui/progress-bar";
import type { CsvImportView } from "@/lib/app-data/csv-import";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { downloadFailedRows } from "./import-api";

function Bar({ label, percent, text }: { label: string; percent: number; text: string }) {
  return (
    <div className="grid gap-1">
      <ProgressBar label={label} percent={percent} text={text} />
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {text}
      </p>
    </div>
  );
}

/**
 * The third step: the file's upload in percent, then the job's rows written and failed of the
 * file's total (read once a second; the job counts the total as it goes, so the file's own row
 * count stands for it until the end).
 */
export function ImportingStep({
  uploadPercent,
  view,
  rows,
}: {
  /** The upload's progress while the file is sent; null once the server has it. */
  uploadPercent: number | null;
  view: CsvImportView | null;
  /** The file's data rows, counted in the browser; null when not known (a tab reopened). */
  rows: number | null;
}) {
  if (uploadPercent !== null) {
    return (
      <Bar
        label={messages.csvImportUploadLabel}
        percent={uploadPercent}
        text={fillTemplate(messages.csvImportUploading, { percent: uploadPercent })}
      />
    );
  }
  const done = view ? view.imported + view.failed : 0;
  const total = Math.max(rows ?? 0, view?.total ?? 0, done);
  const percent = total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 0;
  const text =
    !view || view.status === "queued"
      ? messages.csvImportQueued
      : fillTemplate(messages.csvImportProgress, {
          done,
          total,
          imported: view.imported,
          failed: view.failed,
        });
  return <Bar label={messages.csvImportProgressLabel} percent={percent} text={text} />;
}

/** The last step: the result's sentence, and the failed rows with their reason, downloadable. */
export function CompleteStep({
  entity,
  view,
  onDone,
  onAnother,
}: {
  entity: string;
  view: CsvImportView;
  onDone: () => void;
  onAnother: () => void;
}) {
  const ok = view.status === "complete" && view.failed === 0;
  return (
    <div className="grid min-w-0 gap-4">
      <p role="status" className={ok ? "text-sm font-medium" : "text-sm font-medium text-destructive"}>
        {view.message ?? messages.csvImportFailed}
      </p>
      {view.failedRows.length > 0 ? (
        <div className="grid min-w-0 gap-2">
          <div className="flex flex-wrap items-center gap-2">
            <h3 id="csv-import-failed-rows" className="text-sm font-medium">
              {messages.csvImportFailedRows}
            </h3>
            <Button
              variant="outline"
              size="sm"
              className="ml-auto"
              onClick={() => downloadFailedRows(entity, view.failedRows)}
            >
              <DownloadIcon aria-hidden />
              {messages.csvImportDownloadFailed}
            </Button>
          </div>
          {view.failed > view.failedRows.length ? (
            <p className="text-xs text-muted-foreground">
              {fillTemplate(messages.csvImportFailedRowsKept, { n: view.failedRows.length })}
            </p>
          ) : null}
          <section
            aria-labelledby="csv-import-failed-rows"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region is reached by keyboard to scroll it
            tabIndex={0}
            className="max-h-60 overflow-auto rounded-md border border-border focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            <table className="w-full text-sm">
              <thead className="sticky top-0 bg-muted">
                <tr>
                  <th scope="col" className="w-16 px-2 py-1 text-left font-medium">
                    {messages.csvImportRow}
                  </th>
                  <th scope="col" className="px-2 py-1 text-left font-medium">
                    {messages.csvImportReason}
                  </th>
                </tr>
              </thead>
              <tbody>
                {view.failedRows.map((r) => (
                  <tr key={r.row} className="border-t border-border align-top">
                    <td className="px-2 py-1 tabular-nums">{r.row}</td>
                    <td className="px-2 py-1 break-words">{r.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </div>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={onAnother}>
          {messages.csvImportAnother}
        </Button>
        <Button onClick={onDone}>{messages.csvImportDone}</Button>
      </div>
    </div>
  );
}
