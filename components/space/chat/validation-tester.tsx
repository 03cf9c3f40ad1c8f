"use client";

import { ListChecksIcon, XIcon } from "lucide-react";
import { useId, useState } from "react";
import { apiFetch } from "@/components/auth/api-client";
import { Button } from "@/components/ui/button";
import type { MergeResult } from "@/lib/functions/merge-and-deploy";
import { messages } from "@/lib/messages";
import type { PreviewIssue } from "@/lib/space/preview/types";
import type { ValidationAnswer } from "@/lib/space/validate-schemas";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";
import { RepairPanel } from "./repair-panel";

type State =
  | { phase: "idle" }
  | { phase: "running"; last: ValidationAnswer | null }
  | { phase: "done"; result: ValidationAnswer }
  | { phase: "failed" };

/**
 * The admin's validate tester beside the preview: Validate (then Re-validate) checks the version
 * on show (POST .../versions/{versionId}/validate, with the runtime errors the preview reported)
 * and lists the issues with their file:line and severity. Keyed by version by its parent, so a
 * new version starts at Validate again. After a validation with issues, the repair (RepairPanel).
 */
export function ValidationTester({
  appId,
  versionId,
  previewIssues,
  onApplied,
  className,
}: {
  appId: string;
  versionId: string;
  previewIssues: PreviewIssue[];
  /** A repair was applied (merged as an autofix): the chat and the preview follow its version. */
  onApplied?: (answer: MergeResult) => void;
  className?: string;
}) {
  const [state, setState] = useState<State>({ phase: "idle" });
  const [open, setOpen] = useState(false);
  const listId = useId();
  const last = state.phase === "done" ? state.result : state.phase === "running" ? state.last : null;

  async function validate() {
    setState({ phase: "running", last });
    setOpen(true);
    try {
      const result = await apiFetch<ValidationAnswer>(
        `/api/apps/${encodeURIComponent(appId)}/versions/${encodeURIComponent(versionId)}/validate`,
        { method: "POST", body: { runtimeErrors: previewIssues.filter((i) => i.source === "runtime") } },
      );
      setState({ phase: "done", result });
    } catch {
      setState({ phase: "failed" });
    }
  }

  const label =
    state.phase === "running"
      ? messages.validateRunning
      : state.phase === "idle"
        ? messages.validateButton
        : messages.revalidateButton;

  return (
    <section
      aria-label={messages.validateResultsTitle}
      className={cn(
        // A container: the repair's two results (compare mode) sit side by side once it is wide
        // enough, and it widens for them.
        "@container w-[min(22rem,calc(100%-1rem))] rounded-lg border border-border bg-background text-sm shadow-lg has-[[data-repair-sides='2']]:w-[min(44rem,calc(100%-1rem))]",
        className,
      )}
    >
      <div className="flex items-center gap-2 px-2 py-1.5">
        <Button size="sm" variant="outline" onClick={validate} disabled={state.phase === "running"}>
          <ListChecksIcon aria-hidden />
          {label}
        </Button>
        {last ? (
          <button
            type="button"
            aria-expanded={open}
            aria-controls={listId}
            onClick={() => setOpen((v) => !v)}
            className="flex-1 truncate rounded px-1 text-left text-muted-foreground hover:bg-accent"
          >
            {last.issues.length === 0
              ? messages.validateNoIssues
              : fillTemplate(messages.validateIssueCount, { n: last.issues.length })}
          </button>
        ) : (
          <span className="flex-1" />
        )}
        {open && last ? (
          <Button
            variant="ghost"
            size="icon"
            className="size-7"
            aria-label={messages.validateHideResults}
            onClick={() => setOpen(false)}
          >
            <XIcon aria-hidden />
          </Button>
        ) : null}
      </div>
      {state.phase === "failed" ? (
        <p role="alert" className="border-t border-border px-3 py-2 text-destructive">
          {fillTemplate(messages.validateAlert, { message: messages.validateFailed })}
        </p>
      ) : null}
      {open && last ? (
        <div id={listId} className="max-h-80 overflow-y-auto border-t border-border px-3 py-2">
          <ul className="grid gap-1.5">
            {last.issues.map((issue, i) => (
              <li
                // The list is replaced whole by each validation; its order is the answer's.
                // biome-ignore lint/suspicious/noArrayIndexKey: issues have no id of their own
                key={i}
                className="grid min-w-0 gap-0.5"
              >
                <p className="flex min-w-0 items-center gap-1.5 text-xs">
                  <span
                    className={cn(
                      "rounded px-1 font-medium",
                      issue.severity === "error"
                        ? "bg-destructive/10 text-destructive"
                        : "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
                    )}
                  >
                    {issue.severity}
                  </span>
                  <code className="min-w-0 truncate">
                    {issue.file ?? issue.componentName ?? ""}
                    {issue.line ? `:${issue.line}` : ""}
                  </code>
                  <span className="ml-auto shrink-0 text-muted-foreground">{issue.detectorId}</span>
                </p>
                <p className="[overflow-wrap:anywhere]">{issue.message}</p>
              </li>
            ))}
          </ul>
          <p className="mt-2 text-xs text-muted-foreground">
            {fillTemplate(messages.validateTookMs, { ms: last.clientExecutionTimeMs })}
          </p>
          {state.phase === "done" && last.issues.length > 0 ? (
            <RepairPanel appId={appId} versionId={versionId} issues={last.issues} onApplied={onApplied} />
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
