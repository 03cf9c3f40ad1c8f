"use client";

import { FileTextIcon } from "lucide-react";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/plans/text";
import type { ChatMessageView } from "@/lib/space/views";
import { annotation } from "./conversation";
import { useFocusOpener } from "./use-focus-opener";

// The context-files dialog (spec 2 §2): the files put in the model's prompt for one answer, as the
// chat stream records them (annotations[0].contextFiles / contextMetadata.retrievedFiles). Regular
// users see the list and token estimates; "retrieval methods" are an admin extra (spec 2 §6). No
// score column: nothing ranks the files, so none is recorded.

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
  const total = files.reduce((sum, f) => sum + (f.tokenEstimation ?? 0), 0);
  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent onCloseAutoFocus={focusOpener} size="md" data-testid="context-files-dialog">
        <DialogHeader>
          <DialogTitle>{messages.contextFilesTitle}</DialogTitle>
          <DialogDescription>{messages.contextFilesText}</DialogDescription>
        </DialogHeader>
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
                        <span className="flex min-w-0 items-center gap-2 font-mono text-xs break-all">
                          <FileTextIcon aria-hidden className="size-3.5 shrink-0 text-muted-foreground" />
                          {f.filePath}
                        </span>
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
              {fillTemplate(messages.contextFilesTotal, { n: files.length, tokens: total.toLocaleString() })}
            </p>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
