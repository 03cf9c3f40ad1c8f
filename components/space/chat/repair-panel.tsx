"use client";

import { WandSparklesIcon } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { ApiError, apiFetch } from "@/components/auth/api-client";
import { Button } from "@/components/ui/button";
import {
  REPAIR_APPLIED_SHOW_MS,
  REPAIR_ITERATIONS_DEFAULT,
  REPAIR_ITERATIONS_MAX,
  REPAIR_ITERATIONS_MIN,
} from "@/lib/constants";
import type { MergeResult } from "@/lib/functions/merge-and-deploy";
import { messages } from "@/lib/messages";
import type { RepairAnswer } from "@/lib/space/repair-schemas";
import type { ValidationIssue } from "@/lib/space/validate-schemas";
import { fillTemplate } from "@/lib/text";
import { CompareDialog } from "./compare-dialog";

/** The iterations the admin chose last, kept in this browser. */
const ITERATIONS_KEY = "space-repair-iterations";
const ITERATION_CHOICES = Array.from(
  { length: REPAIR_ITERATIONS_MAX - REPAIR_ITERATIONS_MIN + 1 },
  (_, i) => REPAIR_ITERATIONS_MIN + i,
);

function storedIterations(): number {
  const n = Number(window.localStorage.getItem(ITERATIONS_KEY));
  return ITERATION_CHOICES.includes(n) ? n : REPAIR_ITERATIONS_DEFAULT;
}

type State =
  | { phase: "idle" }
  | { phase: "running"; last: RepairAnswer | null }
  | { phase: "done"; result: RepairAnswer; apply: "ready" | "applying" | "applied" | "failed" }
  | { phase: "failed"; message: string };

/**
 * Try Repair (then Re-repair) under the validation's issues: the model fixes the files with issues
 * (POST .../versions/{versionId}/repair, 1-5 iterations), and the result shows the issues before
 * and after and the files it repaired; Apply merges those files as an autofix (the chat's notice),
 * and the chat and the preview then follow the new version.
 */
export function RepairPanel({
  appId,
  versionId,
  issues,
  onApplied,
}: {
  appId: string;
  versionId: string;
  issues: ValidationIssue[];
  onApplied?: (answer: MergeResult) => void;
}) {
  const [state, setState] = useState<State>({ phase: "idle" });
  /** The repair's files compared with the current ones, to apply some of them only. */
  const [viewing, setViewing] = useState(false);
  const [iterations, setIterations] = useState(REPAIR_ITERATIONS_DEFAULT);
  const selectId = useId();
  useEffect(() => setIterations(storedIterations()), []);
  const last = state.phase === "done" ? state.result : state.phase === "running" ? state.last : null;

  function choose(n: number) {
    setIterations(n);
    window.localStorage.setItem(ITERATIONS_KEY, String(n));
  }

  async function repair() {
    setState({ phase: "running", last });
    try {
      const result = await apiFetch<RepairAnswer>(
        `/api/apps/${encodeURIComponent(appId)}/versions/${encodeURIComponent(versionId)}/repair`,
        { method: "POST", body: { initialIssues: issues, iterations } },
      );
      setState({ phase: "done", result, apply: "ready" });
    } catch (err) {
      // The builder's model limit says itself; anything else is the spec's words.
      const message = err instanceof ApiError && err.status === 429 ? err.message : messages.repairFailed;
      setState({ phase: "failed", message });
    }
  }

  async function apply(result: RepairAnswer) {
    setState({ phase: "done", result, apply: "applying" });
    try {
      const answer = await apiFetch<MergeResult>(`/api/apps/${encodeURIComponent(appId)}/merge`, {
        method: "POST",
        body: { files: result.repairedFiles, autofix: true },
      });
      setState({ phase: "done", result, apply: "applied" });
      // Applied shows a moment; then the chat and the preview move to the new version.
      window.setTimeout(() => onApplied?.(answer), REPAIR_APPLIED_SHOW_MS);
    } catch {
      setState({ phase: "done", result, apply: "failed" });
    }
  }

  const label =
    state.phase === "running"
      ? messages.repairRunning
      : state.phase === "idle"
        ? messages.repairButton
        : messages.rerepairButton;

  return (
    <div className="mt-2 grid gap-2 border-t border-border pt-2">
      <div className="flex items-center gap-2">
        <Button size="sm" variant="outline" onClick={repair} disabled={state.phase === "running"}>
          <WandSparklesIcon aria-hidden />
          {label}
        </Button>
        <label htmlFor={selectId} className="ml-auto text-xs text-muted-foreground">
          {messages.repairIterations}
        </label>
        <select
          id={selectId}
          value={iterations}
          onChange={(e) => choose(Number(e.target.value))}
          className="h-7 rounded border border-input bg-background px-1 text-xs"
        >
          {ITERATION_CHOICES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </div>
      {state.phase === "failed" ? (
        <p role="alert" className="text-destructive">
          {fillTemplate(messages.validateAlert, { message: state.message })}
        </p>
      ) : null}
      {last ? (
        <section aria-label={messages.repairResultsTitle} className="grid gap-1 text-xs">
          <p className="flex gap-3">
            <span>{fillTemplate(messages.repairIssuesBefore, { n: last.initialIssues.length })}</span>
            <span>{fillTemplate(messages.repairIssuesAfter, { n: last.unresolvedIssues.length })}</span>
          </p>
          {last.unresolvedIssues.length === 0 ? <p>{messages.repairAllFixed}</p> : null}
          <p className="text-muted-foreground">
            {fillTemplate(messages.repairIterationsDone, {
              n: last.iterationsPerformed,
              ms: last.executionTimeMs,
            })}
          </p>
          {last.repairedFiles.length === 0 ? (
            <p>{messages.repairNothingChanged}</p>
          ) : (
            <>
              <p className="font-medium">{messages.repairedFilesTitle}</p>
              <ul className="grid gap-0.5">
                {last.repairProcessDetails
                  .filter((d) => last.repairedFiles.some((f) => f.path === d.fileId))
                  .map((d) => {
                    const lastCall = d.aiRepairs.at(-1);
                    return (
                      <li key={d.fileId} className="[overflow-wrap:anywhere]">
                        <code>
                          {fillTemplate(messages.repairFileDetail, {
                            path: d.fileId,
                            before: d.initialIssueCount,
                            after: d.finalIssueCount,
                            model: lastCall?.modelUsed ?? "",
                            ms: d.aiRepairs.reduce((t, a) => t + a.processingTimeMs, 0),
                          })}
                        </code>
                      </li>
                    );
                  })}
              </ul>
              {state.phase === "done" ? (
                <div className="flex items-center gap-2">
                  <Button
                    size="sm"
                    onClick={() => apply(state.result)}
                    disabled={state.apply === "applying" || state.apply === "applied"}
                  >
                    {state.apply === "applying"
                      ? messages.repairApplying
                      : state.apply === "applied"
                        ? messages.repairApplied
                        : messages.repairApply}
                  </Button>
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => setViewing(true)}
                    disabled={state.apply === "applying" || state.apply === "applied"}
                  >
                    {messages.repairViewChanges}
                  </Button>
                  {state.apply === "failed" ? (
                    <p role="alert" className="text-destructive">
                      {fillTemplate(messages.validateAlert, { message: messages.repairApplyFailed })}
                    </p>
                  ) : null}
                </div>
              ) : null}
            </>
          )}
        </section>
      ) : null}
      {viewing && state.phase === "done" ? (
        <CompareDialog
          appId={appId}
          source={{ kind: "repair", files: state.result.repairedFiles }}
          onMerged={(answer) => {
            setState({ phase: "done", result: state.result, apply: "applied" });
            window.setTimeout(() => onApplied?.(answer), REPAIR_APPLIED_SHOW_MS);
          }}
          onOpenChange={(open) => setViewing(open)}
        />
      ) : null}
    </div>
  );
}
