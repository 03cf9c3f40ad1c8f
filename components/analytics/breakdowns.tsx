import type { AnalyticsStatus, AnalyticsTool, AnalyticsTotals } from "@/lib/analytics/schemas";
import { type MessageKey, messages } from "@/lib/messages";
import { cn } from "@/lib/utils";
import { formatCompactNumber, formatDollars } from "./format";

// The summary numbers, the runs by status and the top tools: plain text and tables (numbers a
// screen reader reads as they are), with decorative bars beside them.

export const STATUS_LABELS: Record<AnalyticsStatus, MessageKey> = {
  success: "analyticsStatusSuccess",
  error: "analyticsStatusError",
  cancelled: "analyticsStatusCancelled",
  aborted: "analyticsStatusAborted",
  running: "analyticsStatusRunning",
};

/** A status in a pill; colours meet AA contrast in both themes. */
export const STATUS_TONES: Record<AnalyticsStatus, string> = {
  success: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300",
  error: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300",
  cancelled: "bg-muted text-muted-foreground",
  aborted: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-300",
  running: "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-300",
};

const BAR_TONES: Record<AnalyticsStatus, string> = {
  success: "bg-emerald-600 dark:bg-emerald-400",
  error: "bg-red-600 dark:bg-red-400",
  cancelled: "bg-muted-foreground",
  aborted: "bg-amber-600 dark:bg-amber-400",
  running: "bg-sky-600 dark:bg-sky-400",
};

export function SummaryTiles({ totals }: { totals: AnalyticsTotals }) {
  const tiles: { label: string; value: string; exact: string; hint?: string; testId: string }[] = [
    {
      label: messages.analyticsRuns,
      value: formatCompactNumber(totals.runs),
      exact: totals.runs.toLocaleString("en-US"),
      testId: "runs",
    },
    {
      label: messages.analyticsUsers,
      value: formatCompactNumber(totals.users),
      exact: totals.users.toLocaleString("en-US"),
      hint: messages.analyticsUsersHint,
      testId: "users",
    },
    {
      label: messages.analyticsSignups,
      value: formatCompactNumber(totals.signups),
      exact: totals.signups.toLocaleString("en-US"),
      testId: "signups",
    },
    {
      label: messages.analyticsTokens,
      value: formatCompactNumber(totals.tokens),
      exact: totals.tokens.toLocaleString("en-US"),
      testId: "tokens",
    },
    {
      label: messages.analyticsCost,
      value: formatDollars(totals.costUsd),
      exact: formatDollars(totals.costUsd),
      testId: "cost",
    },
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
      {tiles.map((t) => (
        <div
          key={t.testId}
          className="grid content-start gap-1 rounded-lg border border-border bg-background p-4 shadow-sm last:col-span-2 sm:last:col-span-1"
        >
          <dt className="text-sm text-muted-foreground">{t.label}</dt>
          <dd
            className="text-2xl font-semibold tabular-nums"
            title={t.exact}
            data-testid={`analytics-${t.testId}`}
          >
            {t.value}
          </dd>
          {t.hint ? <dd className="text-xs text-muted-foreground">{t.hint}</dd> : null}
        </div>
      ))}
    </dl>
  );
}

export function StatusBreakdown({ statuses }: { statuses: { status: AnalyticsStatus; runs: number }[] }) {
  const total = statuses.reduce((s, x) => s + x.runs, 0);
  return (
    <AnalyticsCard id="analytics-statuses" title={messages.analyticsStatuses} className="content-start gap-3">
      <ul className="grid gap-3" data-testid="analytics-statuses">
        {statuses.map((s) => {
          const share = total ? s.runs / total : 0;
          return (
            <li key={s.status} className="grid gap-1">
              <div className="flex items-baseline justify-between gap-3 text-sm">
                <span>{messages[STATUS_LABELS[s.status]]}</span>
                <span className="tabular-nums text-muted-foreground">
                  {formatCompactNumber(s.runs)} · {Math.round(share * 100)}%
                </span>
              </div>
              <div aria-hidden="true" className="h-2 overflow-hidden rounded-full bg-muted">
                <div
                  className={cn("h-full rounded-full", BAR_TONES[s.status])}
                  style={{ width: `${share * 100}%` }}
                />
              </div>
            </li>
          );
        })}
      </ul>
    </AnalyticsCard>
  );
}

export function TopTools({ tools }: { tools: AnalyticsTool[] }) {
  return (
    <AnalyticsCard id="analytics-tools" title={messages.analyticsTopTools} className="content-start gap-3">
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm tabular-nums" data-testid="analytics-tools">
          <thead className="text-muted-foreground">
            <tr>
              <th scope="col" className="py-1 pr-3 font-medium">
                {messages.analyticsTool}
              </th>
              <th scope="col" className="py-1 pr-3 text-right font-medium">
                {messages.analyticsRuns}
              </th>
              <th scope="col" className="py-1 pr-3 text-right font-medium">
                {messages.analyticsTokens}
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                {messages.analyticsCost}
              </th>
            </tr>
          </thead>
          <tbody>
            {tools.map((t) => (
              <tr key={t.toolId ?? "none"} className="border-t border-border">
                <th scope="row" className="max-w-48 truncate py-1.5 pr-3 font-normal">
                  {t.name}
                </th>
                <td className="py-1.5 pr-3 text-right">{formatCompactNumber(t.runs)}</td>
                <td className="py-1.5 pr-3 text-right">{formatCompactNumber(t.tokens)}</td>
                <td className="py-1.5 text-right">{formatDollars(t.costUsd)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </AnalyticsCard>
  );
}

/** A titled card of the analytics page; its heading names the section for assistive technology. */
export function AnalyticsCard({
  id,
  title,
  className,
  children,
}: {
  id: string;
  title: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <section
      aria-labelledby={id}
      className={cn("grid min-w-0 rounded-lg border border-border bg-background p-4 shadow-sm", className)}
    >
      <h2 id={id} className="font-medium">
        {title}
      </h2>
      {children}
    </section>
  );
}
