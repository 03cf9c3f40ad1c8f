"use client";

import { ChevronRightIcon } from "lucide-react";
import * as React from "react";
import { apiFetch } from "@/components/auth/api-client";
import { LoadFailed } from "@/components/ui/load-failed";
import { LoadingLine } from "@/components/ui/loading-line";
import { runsMessages } from "@/lib/messages/runs";
import type { RunContextAnswer, RunContextEmpty } from "@/lib/runs/schemas";
import { fillTemplate } from "@/lib/text";

// "Data used": what a run's model was grounded in, for the app's builder (GET
// /api/apps/{appId}/runs/{runId}/context, read when shown). Each excerpt (or item-list row) is a
// closed <details>: its source and place in the summary (and, for admins, its score, which only
// their answer carries), its text as sent once opened. A run without any says why.

const EMPTY_TEXT: Record<RunContextEmpty, keyof typeof runsMessages> = {
  running: "runContextRunning",
  notRecorded: "runContextNotRecorded",
  noWords: "runContextNoWords",
  noSources: "runContextNoSources",
  nothingMatched: "runContextNothingMatched",
  noRowsMatched: "runContextNoRowsMatched",
};

type Load = { state: "loading" } | { state: "failed" } | { state: "done"; answer: RunContextAnswer };

/**
 * The builder's own run on the app's page: closed under the answer, loaded only once opened (the
 * page's end users never get it: it is drawn only for the app's builder, and the route refuses
 * everybody else).
 */
export function RunContextDisclosure({ appId, runId }: { appId: string; runId: string }) {
  const [open, setOpen] = React.useState(false);
  return (
    <details
      className="group/context text-sm"
      data-testid="run-context-disclosure"
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary className="flex w-fit cursor-pointer list-none items-center gap-1.5 rounded-sm text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring [&::-webkit-details-marker]:hidden">
        <ChevronRightIcon
          aria-hidden="true"
          className="size-4 transition-transform group-open/context:rotate-90"
        />
        {runsMessages.runContextShow}
      </summary>
      {open ? (
        <div className="mt-2">
          <RunContext appId={appId} runId={runId} />
        </div>
      ) : null}
    </details>
  );
}

export function RunContext({ appId, runId }: { appId: string; runId: string }) {
  const [load, setLoad] = React.useState<Load>({ state: "loading" });
  const [attempt, setAttempt] = React.useState(0);
  const headingId = React.useId();

  // biome-ignore lint/correctness/useExhaustiveDependencies: a retry loads again
  React.useEffect(() => {
    let live = true;
    setLoad({ state: "loading" });
    apiFetch<RunContextAnswer>(`/api/apps/${appId}/runs/${runId}/context`)
      .then((answer) => live && setLoad({ state: "done", answer }))
      .catch(() => live && setLoad({ state: "failed" }));
    return () => {
      live = false;
    };
  }, [appId, runId, attempt]);

  return (
    <section aria-labelledby={headingId} className="grid gap-2" data-testid="run-context">
      <h3 id={headingId} className="font-medium">
        {runsMessages.runContextTitle}
      </h3>
      {load.state === "loading" ? <LoadingLine text={runsMessages.runContextLoading} /> : null}
      {load.state === "failed" ? (
        <LoadFailed text={runsMessages.runContextFailed} onRetry={() => setAttempt((n) => n + 1)} />
      ) : null}
      {load.state === "done" ? <ContextList answer={load.answer} /> : null}
    </section>
  );
}

function ContextList({ answer }: { answer: RunContextAnswer }) {
  if (answer.empty) {
    return (
      <p className="text-muted-foreground" data-testid="run-context-empty">
        {runsMessages[EMPTY_TEXT[answer.empty]]}
      </p>
    );
  }
  const sourceName = (name: string) => name || runsMessages.runContextDeletedSource;
  if (answer.kind === "rows") {
    const n = answer.rows.length;
    return (
      <>
        <p className="text-muted-foreground">
          {n === 1 ? runsMessages.runContextOneRow : fillTemplate(runsMessages.runContextRows, { n })}
        </p>
        <ol className="grid gap-1.5">
          {answer.rows.map((r) => (
            <Entry
              key={`${r.itemId}:${r.position}`}
              label={fillTemplate(runsMessages.runContextRow, {
                source: sourceName(r.itemName),
                position: r.position + 1,
              })}
            >
              <dl className="grid gap-x-3 gap-y-0.5 sm:grid-cols-[minmax(6rem,auto)_1fr]">
                {Object.entries(r.data).map(([column, value]) => (
                  <div key={column} className="contents">
                    <dt className="text-muted-foreground">{column}</dt>
                    <dd className="whitespace-pre-wrap break-words">{value}</dd>
                  </div>
                ))}
              </dl>
            </Entry>
          ))}
        </ol>
      </>
    );
  }
  const n = answer.excerpts.length;
  return (
    <>
      <p className="text-muted-foreground">
        {n === 1 ? runsMessages.runContextOneExcerpt : fillTemplate(runsMessages.runContextExcerpts, { n })}
      </p>
      <ol className="grid gap-1.5">
        {answer.excerpts.map((e) => (
          <Entry
            key={`${e.itemId}:${e.position}`}
            label={fillTemplate(runsMessages.runContextExcerpt, {
              source: sourceName(e.itemName),
              position: e.position + 1,
            })}
            score={e.score}
          >
            <p className="whitespace-pre-wrap break-words">{e.text}</p>
          </Entry>
        ))}
      </ol>
    </>
  );
}

/** One excerpt or row: closed, its label (and score) in the summary; opened by click, Enter or Space. */
function Entry({ label, score, children }: { label: string; score?: number; children: React.ReactNode }) {
  return (
    <li data-testid="run-context-entry">
      <details className="group/entry rounded-md border border-border">
        <summary className="flex cursor-pointer list-none items-center gap-2 rounded-md px-2.5 py-2 outline-none hover:bg-accent/50 focus-visible:ring-2 focus-visible:ring-ring [&::-webkit-details-marker]:hidden">
          <ChevronRightIcon
            aria-hidden="true"
            className="size-4 shrink-0 text-muted-foreground transition-transform group-open/entry:rotate-90"
          />
          <span className="min-w-0 flex-1 break-words">{label}</span>
          {score !== undefined ? (
            <span className="shrink-0 rounded-full border border-border px-2 text-xs tabular-nums text-muted-foreground">
              {runsMessages.runContextScore} {score.toFixed(2)}
            </span>
          ) : null}
        </summary>
        <div className="border-t border-border px-2.5 py-2">{children}</div>
      </details>
    </li>
  );
}
