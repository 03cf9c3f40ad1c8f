"use client";

import { ChevronDownIcon, LoaderCircleIcon } from "lucide-react";
import { useId, useState } from "react";
import { RelativeTime } from "@/components/home/relative-time";
import { RunContext } from "@/components/runs/run-context";
import { Button } from "@/components/ui/button";
import type { AnalyticsRun } from "@/lib/analytics/schemas";
import { messages } from "@/lib/messages";
import { cn } from "@/lib/utils";
import { AnalyticsCard, STATUS_LABELS, STATUS_TONES } from "./breakdowns";
import { formatCompactNumber, formatDollars, formatDuration } from "./format";

/** An input's value as the end user gave it: text, a list of choices, a number. */
function inputText(value: unknown): string {
  if (Array.isArray(value)) return value.join(", ");
  if (value === null || value === undefined) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

function RunRow({ appId, run }: { appId: string; run: AnalyticsRun }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const tokens = (run.promptTokens ?? 0) + (run.completionTokens ?? 0);
  const inputs = Object.entries(run.inputs).filter(([, v]) => inputText(v) !== "");
  return (
    <li className="border-t border-border first:border-t-0" data-testid="analytics-run">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        className="grid w-full grid-cols-[1fr_auto] items-center gap-x-3 gap-y-1 px-1 py-3 text-left outline-none hover:bg-accent/50 focus-visible:ring-2 focus-visible:ring-ring sm:grid-cols-[8rem_1fr_auto_auto]"
      >
        <span className="text-sm text-muted-foreground">
          <RelativeTime iso={run.createdAt} />
        </span>
        <span className="col-start-1 row-start-2 flex min-w-0 flex-wrap items-center gap-x-2 text-sm sm:col-start-auto sm:row-start-auto">
          <span className="truncate font-medium">{run.toolName}</span>
          <span className="truncate text-muted-foreground">{run.userEmail ?? messages.analyticsVisitor}</span>
          {run.isDemo ? (
            <span className="rounded-full border border-border px-1.5 text-xs text-muted-foreground">
              {messages.analyticsDemo}
            </span>
          ) : null}
        </span>
        <span className="hidden text-right text-sm tabular-nums text-muted-foreground sm:block">
          {formatCompactNumber(tokens)} ·{" "}
          {run.costKnown ? formatDollars(run.costUsd) : messages.analyticsCostUnknown}
        </span>
        <span className="row-span-2 flex items-center gap-2 sm:row-span-1">
          <span className={cn("rounded-full px-2 py-0.5 text-xs font-medium", STATUS_TONES[run.status])}>
            {messages[STATUS_LABELS[run.status]]}
          </span>
          <ChevronDownIcon
            aria-hidden="true"
            className={cn("size-4 text-muted-foreground transition-transform", open && "rotate-180")}
          />
        </span>
      </button>
      {open ? (
        <div id={panelId} className="grid gap-4 px-1 pb-4 text-sm">
          <div className="grid gap-1">
            <h3 className="font-medium">{messages.analyticsInputs}</h3>
            {inputs.length ? (
              <dl className="grid gap-1 sm:grid-cols-[10rem_1fr]">
                {inputs.map(([name, value]) => (
                  <div key={name} className="contents">
                    <dt className="text-muted-foreground">{name}</dt>
                    <dd className="whitespace-pre-wrap break-words">{inputText(value)}</dd>
                  </div>
                ))}
              </dl>
            ) : (
              <p className="text-muted-foreground">{messages.analyticsNoInputs}</p>
            )}
          </div>
          <div className="grid gap-1">
            <h3 className="font-medium">{messages.analyticsOutput}</h3>
            {run.output ? (
              <p className="whitespace-pre-wrap break-words rounded-md bg-muted p-3">{run.output}</p>
            ) : (
              <p className="text-muted-foreground">{messages.analyticsNoOutput}</p>
            )}
          </div>
          {run.error ? (
            <div className="grid gap-1">
              <h3 className="font-medium">{messages.analyticsRunError}</h3>
              <p className="whitespace-pre-wrap break-words">{run.error}</p>
            </div>
          ) : null}
          <RunContext appId={appId} runId={run.id} />
          <dl className="flex flex-wrap gap-x-6 gap-y-1 text-muted-foreground">
            <div className="flex gap-1.5">
              <dt>{messages.analyticsRunModel}</dt>
              <dd className="text-foreground">{run.model}</dd>
            </div>
            <div className="flex gap-1.5">
              <dt>{messages.analyticsTokens}</dt>
              <dd className="tabular-nums text-foreground">{tokens.toLocaleString("en-US")}</dd>
            </div>
            <div className="flex gap-1.5">
              <dt>{messages.analyticsCost}</dt>
              <dd className="tabular-nums text-foreground">
                {run.costKnown ? formatDollars(run.costUsd) : messages.analyticsCostUnknown}
              </dd>
            </div>
            {run.durationMs !== null ? (
              <div className="flex gap-1.5">
                <dt>{messages.analyticsRunDuration}</dt>
                <dd className="tabular-nums text-foreground">{formatDuration(run.durationMs)}</dd>
              </div>
            ) : null}
          </dl>
        </div>
      ) : null}
    </li>
  );
}

/**
 * The range's runs, newest first; each opens to its inputs, output and the data its model was
 * given. More come page by page.
 */
export function RecentRuns({
  appId,
  runs,
  hasMore,
  loadingMore,
  onLoadMore,
}: {
  appId: string;
  runs: AnalyticsRun[];
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
}) {
  return (
    <AnalyticsCard id="analytics-runs" title={messages.analyticsRecentRuns} className="gap-2">
      <ul className="grid">
        {runs.map((r) => (
          <RunRow key={r.id} appId={appId} run={r} />
        ))}
      </ul>
      {hasMore ? (
        <Button
          type="button"
          variant="outline"
          className="justify-self-center"
          onClick={onLoadMore}
          disabled={loadingMore}
          aria-busy={loadingMore}
        >
          {loadingMore ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : null}
          {messages.analyticsLoadMore}
        </Button>
      ) : null}
    </AnalyticsCard>
  );
}
