"use client";

import { Trash2Icon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ProgressBar } from "@/components/ui/progress-bar";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import type { BulkRun } from "./use-bulk-delete";

/**
 * Above the grid while rows are ticked: how many, and Delete selected; while they are being
 * deleted, the percent done as a progress bar, and Cancel (which stops after the current batch).
 */
export function BulkDeleteBar({
  count,
  run,
  onDelete,
  onCancel,
}: {
  count: number;
  run: BulkRun | null;
  onDelete: () => void;
  onCancel: () => void;
}) {
  if (run) {
    const text = fillTemplate(messages.databaseBulkDeletePercent, { percent: run.percent });
    return (
      <div className="flex flex-wrap items-center gap-3 rounded-lg border border-border px-3 py-2">
        <ProgressBar
          label={messages.databaseBulkDeleteProgress}
          percent={run.percent}
          text={text}
          className="w-auto min-w-24 flex-1"
        />
        <span className="text-xs text-muted-foreground tabular-nums" aria-hidden="true">
          {text}
        </span>
        <Button variant="outline" size="sm" onClick={onCancel} disabled={run.cancelling}>
          {messages.databaseBulkDeleteCancel}
        </Button>
      </div>
    );
  }
  if (count === 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-3 rounded-lg border border-border px-3 py-2">
      <span className="text-sm" role="status">
        {fillTemplate(messages.databaseSelectedCount, { count })}
      </span>
      <Button variant="destructive" size="sm" className="ml-auto" onClick={onDelete}>
        <Trash2Icon aria-hidden />
        {messages.databaseDeleteSelected}
      </Button>
    </div>
  );
}
