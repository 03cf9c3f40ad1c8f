"use client";

import { Button } from "@/components/ui/button";
import { messages } from "@/lib/messages";
import type { RepairAnswer } from "@/lib/space/repair-schemas";
import { fillTemplate } from "@/lib/text";

// One repair's result: the issues before and after, the files it repaired with the model and its
// time, and Apply / View changes. The repair panel shows one, or in compare mode the default
// model's and the custom model's side by side.

export type ApplyState = "ready" | "applying" | "applied" | "failed";

/** One model's repair: under way (the last result still shown), done, or failed with what to say. */
export type RepairSide =
  | { phase: "running"; last: RepairAnswer | null }
  | { phase: "done"; result: RepairAnswer; apply: ApplyState }
  | { phase: "failed"; message: string };

export function RepairResult({
  heading,
  side,
  locked,
  onApply,
  onView,
}: {
  /** Compare mode: which model's result this is ("Default model (gpt-4o-mini)"); null otherwise. */
  heading: string | null;
  side: RepairSide;
  /** Another result is being applied or was: this one can no longer be. */
  locked: boolean;
  onApply: (result: RepairAnswer) => void;
  onView: () => void;
}) {
  const last = side.phase === "done" ? side.result : side.phase === "running" ? side.last : null;
  const label = heading
    ? fillTemplate(messages.repairResultsOf, { side: heading })
    : messages.repairResultsTitle;
  const busy = locked || (side.phase === "done" && (side.apply === "applying" || side.apply === "applied"));
  return (
    <section
      aria-label={label}
      aria-busy={side.phase === "running"}
      className="grid content-start gap-1 text-xs"
    >
      {heading ? <h3 className="font-medium">{heading}</h3> : null}
      {side.phase === "failed" ? (
        <p role="alert" className="text-destructive">
          {fillTemplate(messages.validateAlert, { message: side.message })}
        </p>
      ) : side.phase === "running" && !last ? (
        <p className="text-muted-foreground">{messages.repairRunning}</p>
      ) : null}
      {last ? (
        <>
          <p className="flex flex-wrap gap-x-3">
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
                  .map((d) => (
                    <li key={d.fileId} className="[overflow-wrap:anywhere]">
                      <code>
                        {fillTemplate(messages.repairFileDetail, {
                          path: d.fileId,
                          before: d.initialIssueCount,
                          after: d.finalIssueCount,
                          model: d.aiRepairs.at(-1)?.modelUsed ?? "",
                          ms: d.aiRepairs.reduce((t, a) => t + a.processingTimeMs, 0),
                        })}
                      </code>
                    </li>
                  ))}
              </ul>
              {side.phase === "done" ? (
                <div className="flex flex-wrap items-center gap-2">
                  <Button size="sm" onClick={() => onApply(side.result)} disabled={busy}>
                    {side.apply === "applying"
                      ? messages.repairApplying
                      : side.apply === "applied"
                        ? messages.repairApplied
                        : messages.repairApply}
                  </Button>
                  <Button size="sm" variant="outline" onClick={onView} disabled={busy}>
                    {messages.repairViewChanges}
                  </Button>
                  {side.apply === "failed" ? (
                    <p role="alert" className="text-destructive">
                      {fillTemplate(messages.validateAlert, { message: messages.repairApplyFailed })}
                    </p>
                  ) : null}
                </div>
              ) : null}
            </>
          )}
        </>
      ) : null}
    </section>
  );
}
