"use client";

import { AlertTriangleIcon, FileTextIcon } from "lucide-react";
import { useId } from "react";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { messages } from "@/lib/messages";
import type { ChatMessageView } from "@/lib/space/views";
import { fillTemplate } from "@/lib/text";
import { annotation } from "./conversation";
import { useFocusOpener } from "./use-focus-opener";

// The context-files dialog: the files put in the model's prompt for one answer, as the
// chat stream records them (annotations[0].contextFiles / contextMetadata.retrievedFiles). Regular
// users see the list and token estimates; admins also see "retrieval methods" and "context file
// counts and missing-file warning": how many of the app's files were in the prompt
// (contextMetadata.relevantFiles) and which were left out (belowThresholdFiles). No score column:
// nothing ranks the files, so none is recorded.

export type ContextFile = {
  filePath: string;
  tokenEstimation: number | null;
  retrievalMethods: string[];
};

/** The answer's context files: contextFiles in order, with what contextMetadata says of each. */
export function contextFilesOf(message: ChatMessageView): ContextFile[] | null {
  const a = annotation(message);
  if (!Array.isArray(a.contextFiles)) return null;
  const retrieved = Array.isArray(a.contextMetadata?.retrievedFiles)
    ? (a.contextMetadata.retrievedFiles as Record<string, unknown>[])
    : [];
  const byPath = new Map(retrieved.map((r) => [String(r.filePath ?? ""), r]));
  return a.contextFiles
    .map((f) => (typeof f === "string" ? f : String((f as { filePath?: unknown })?.filePath ?? "")))
    .filter(Boolean)
    .map((filePath) => {
      const r = byPath.get(filePath);
      return {
        filePath,
        tokenEstimation: typeof r?.tokenEstimation === "number" ? r.tokenEstimation : null,
        retrievalMethods: Array.isArray(r?.retrievalMethods) ? r.retrievalMethods.map(String) : [],
      };
    });
}

/** How much of the app the prompt held: its files in full, of all the app's files, and those left out. */
export type ContextCoverage = {
  inPrompt: number;
  total: number;
  missing: { filePath: string; tokenEstimation: number | null }[];
};

/** The answer's coverage of the app; null for an answer recorded before the app's files were (no count to give). */
export function contextCoverageOf(message: ChatMessageView): ContextCoverage | null {
  const a = annotation(message);
  const files = contextFilesOf(message);
  const relevant = a.contextMetadata?.relevantFiles;
  if (!files || !Array.isArray(relevant)) return null;
  const below = a.contextMetadata?.belowThresholdFiles;
  const missing = (Array.isArray(below) ? (below as Record<string, unknown>[]) : [])
    .map((f) => ({
      filePath: String(f?.filename ?? ""),
      tokenEstimation: typeof f?.tokenEstimation === "number" ? f.tokenEstimation : null,
    }))
    .filter((f) => f.filePath);
  return { inPrompt: files.length, total: relevant.length, missing };
}

export function ContextFilesDialog({
  message,
  isAdmin,
  onOpenChange,
}: {
  message: ChatMessageView;
  isAdmin: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const focusOpener = useFocusOpener();
  const files = contextFilesOf(message) ?? [];
  const coverage = isAdmin ? contextCoverageOf(message) : null;
  const total = files.reduce((sum, f) => sum + (f.tokenEstimation ?? 0), 0);
  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent onCloseAutoFocus={focusOpener} size="md" data-testid="context-files-dialog">
        <DialogHeader>
          <DialogTitle>{messages.contextFilesTitle}</DialogTitle>
          <DialogDescription>{messages.contextFilesText}</DialogDescription>
        </DialogHeader>
        {coverage ? (
          <p className="text-sm font-medium" data-testid="context-files-coverage">
            {fillTemplate(messages.contextFilesCoverage, { n: coverage.inPrompt, m: coverage.total })}
          </p>
        ) : null}
        {files.length === 0 ? (
          <p className="text-sm text-muted-foreground">{messages.contextFilesNone}</p>
        ) : (
          <div className="grid gap-2">
            <div className="overflow-x-auto rounded-md border border-border">
              <table className="w-full text-sm">
                <thead className="bg-muted text-left text-xs text-muted-foreground">
                  <tr>
                    <th scope="col" className="px-3 py-2 font-medium">
                      {messages.contextFilesFile}
                    </th>
                    {isAdmin ? (
                      <th scope="col" className="px-3 py-2 font-medium">
                        {messages.contextFilesMethods}
                      </th>
                    ) : null}
                    <th scope="col" className="px-3 py-2 text-right font-medium">
                      {messages.contextFilesTokens}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {files.map((f) => (
                    <tr key={f.filePath} className="border-t border-border">
                      <td className="px-3 py-2">
                        <FileName path={f.filePath} />
                      </td>
                      {isAdmin ? (
                        <td className="px-3 py-2 text-xs text-muted-foreground">
                          {f.retrievalMethods.join(", ")}
                        </td>
                      ) : null}
                      <td className="px-3 py-2 text-right tabular-nums">
                        {f.tokenEstimation === null ? "" : f.tokenEstimation.toLocaleString()}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p className="text-xs text-muted-foreground" data-testid="context-files-total">
              {fillTemplate(files.length === 1 ? messages.contextFilesTotalOne : messages.contextFilesTotal, {
                n: files.length,
                tokens: total.toLocaleString(),
              })}
            </p>
          </div>
        )}
        {coverage && coverage.missing.length > 0 ? <MissingFiles missing={coverage.missing} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function FileName({ path }: { path: string }) {
  return (
    <span className="flex min-w-0 items-center gap-2 font-mono text-xs break-all">
      <FileTextIcon aria-hidden className="size-3.5 shrink-0 text-muted-foreground" />
      {path}
    </span>
  );
}

/** "missing-file warning" (admins only): the app's files the model did not see. */
function MissingFiles({ missing }: { missing: ContextCoverage["missing"] }) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="grid gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-50"
      data-testid="context-files-missing"
    >
      <h3 id={headingId} className="flex items-center gap-2 font-medium">
        <AlertTriangleIcon aria-hidden className="size-4 shrink-0 text-amber-700 dark:text-amber-400" />
        {missing.length === 1
          ? messages.contextFilesMissingOne
          : fillTemplate(messages.contextFilesMissing, { n: missing.length })}
      </h3>
      <p className="text-xs">
        {missing.length === 1 ? messages.contextFilesMissingTextOne : messages.contextFilesMissingText}
      </p>
      <ul className="grid gap-1">
        {missing.map((f) => (
          <li key={f.filePath} className="flex items-center justify-between gap-3">
            <FileName path={f.filePath} />
            {f.tokenEstimation === null ? null : (
              <span className="shrink-0 text-xs tabular-nums">
                {fillTemplate(messages.contextFilesMissingTokens, {
                  tokens: f.tokenEstimation.toLocaleString(),
                })}
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
