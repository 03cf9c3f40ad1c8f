"use client";

import { type ReactNode, useMemo } from "react";
import { messages } from "@/lib/messages";
import { type DiffRow, diffLines, diffStats, foldUnchanged } from "@/lib/space/line-diff";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";

// The line diff of one file (its status: added, modified or deleted), with the words that changed
// inside changed lines, shared by the all-changes dialog and the version history dialog per file.

export type ChangeStatus = "added" | "modified" | "deleted";
export type ChangedFile = { path: string; status: ChangeStatus; before: string; after: string };

export const STATUS_LABEL: Record<ChangeStatus, string> = {
  added: messages.diffStatusAdded,
  modified: messages.diffStatusModified,
  deleted: messages.diffStatusDeleted,
};
export const STATUS_LETTER: Record<ChangeStatus, string> = { added: "A", modified: "M", deleted: "D" };
export const STATUS_COLOR: Record<ChangeStatus, string> = {
  added: "text-emerald-700 dark:text-emerald-400",
  modified: "text-amber-700 dark:text-amber-400",
  deleted: "text-destructive",
};

/** A status as its letter, read out as its word. */
export function StatusLetter({ status, className }: { status: ChangeStatus; className?: string }) {
  return (
    <span className={cn("shrink-0 font-mono text-xs font-semibold", STATUS_COLOR[status], className)}>
      <span aria-hidden>{STATUS_LETTER[status]}</span>
      <span className="sr-only">{STATUS_LABEL[status]}</span>
    </span>
  );
}

/**
 * The file's path, its status and line counts, and the diff with unchanged runs folded.
 * `actions`: buttons beside the path (the dialog per file's History); `heading`: false when the
 * dialog already names the file.
 */
export function FileDiff({
  file,
  actions,
  heading = true,
}: {
  file: ChangedFile;
  actions?: ReactNode;
  heading?: boolean;
}) {
  const { rows, stats } = useMemo(() => {
    const lines = diffLines(file.before, file.after);
    return { rows: foldUnchanged(lines), stats: diffStats(lines) };
  }, [file]);
  return (
    <section className="grid min-w-0 content-start gap-2" aria-label={file.path} data-testid="changes-diff">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        {heading ? (
          <h3 className="mr-auto min-w-0 font-mono text-xs font-medium break-all">{file.path}</h3>
        ) : null}
        <p className="text-xs text-muted-foreground">
          <span className={STATUS_COLOR[file.status]}>{STATUS_LABEL[file.status]}</span>
          {" · "}
          {fillTemplate(messages.diffLineStats, { added: stats.added, removed: stats.removed })}
        </p>
        {actions}
      </div>
      {rows.length === 0 ? (
        <p className="text-sm text-muted-foreground">{messages.diffEmptyFile}</p>
      ) : (
        <div
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling diff is reached by keyboard to scroll it (long lines scroll sideways)
          tabIndex={0}
          className="max-h-[50vh] overflow-auto rounded-md border border-border font-mono text-xs focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none md:max-h-[60vh]"
        >
          <table className="w-full border-collapse">
            <tbody>
              {rows.map((row, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the rows of one diff never reorder
                <DiffRowView key={i} row={row} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function DiffRowView({ row }: { row: DiffRow }) {
  if (row.type === "skip") {
    return (
      <tr className="bg-muted text-muted-foreground">
        <td colSpan={4} className="px-3 py-1 text-center">
          {fillTemplate(messages.diffUnchangedLines, { n: row.count })}
        </td>
      </tr>
    );
  }
  const oldLine = row.type === "added" ? "" : row.oldLine;
  const newLine = row.type === "removed" ? "" : row.newLine;
  return (
    <tr
      data-line={row.type}
      className={cn(row.type === "added" && "bg-emerald-500/10", row.type === "removed" && "bg-red-500/10")}
    >
      <td className="w-px px-2 text-right text-muted-foreground tabular-nums select-none">{oldLine}</td>
      <td className="w-px px-2 text-right text-muted-foreground tabular-nums select-none">{newLine}</td>
      <td
        className={cn(
          "w-px pl-1 select-none",
          row.type === "added" && "text-emerald-700 dark:text-emerald-400",
          row.type === "removed" && "text-destructive",
        )}
      >
        {row.type === "added" ? (
          <>
            <span aria-hidden>+</span>
            <span className="sr-only">{messages.diffStatusAdded}</span>
          </>
        ) : row.type === "removed" ? (
          <>
            <span aria-hidden>-</span>
            <span className="sr-only">{messages.diffStatusDeleted}</span>
          </>
        ) : null}
      </td>
      <td className="px-2 whitespace-pre">
        {row.type !== "same" && row.words
          ? row.words.map((w, i) =>
              w.changed ? (
                <span
                  // biome-ignore lint/suspicious/noArrayIndexKey: the words of one line never reorder
                  key={i}
                  data-word-change
                  className={cn("rounded-sm", row.type === "added" ? "bg-emerald-500/30" : "bg-red-500/30")}
                >
                  {w.text}
                </span>
              ) : (
                w.text
              ),
            )
          : row.text}
      </td>
    </tr>
  );
}
