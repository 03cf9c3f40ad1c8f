"use client";

import { ExternalLinkIcon, LinkIcon, PencilIcon } from "lucide-react";
import Link from "next/link";
import { useRef, useState } from "react";
import { toast } from "sonner";
import { ApiError, apiFetch } from "@/components/auth/api-client";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { lastDays } from "@/lib/analytics/range";
import type { AnalyticsRunsPage, AppAnalytics } from "@/lib/analytics/schemas";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { StatusBreakdown, SummaryTiles, TopTools } from "./breakdowns";
import { type ChartRow, type ChartSeries, chartSummary, DayChart } from "./day-chart";
import { formatCompactNumber, formatDollars } from "./format";
import { RangePicker } from "./range-picker";
import { RecentRuns } from "./recent-runs";

const PRIMARY = "var(--primary)";
const SECONDARY = "var(--muted-foreground)";
const count = (n: number) => formatCompactNumber(n);

/**
 * /analytics/app/{appId}: the figures of a published app over a range of UTC days. The server
 * renders the first range; another range is fetched from GET /api/apps/{appId}/analytics and
 * written into the address (?days=30, or ?from=&to=), so a reload or a shared link shows it again.
 */
export function AnalyticsView({ initial }: { initial: AppAnalytics }) {
  const [data, setData] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  // Only the answer to the latest range is shown: a slower earlier one is dropped.
  const latest = useRef(0);
  const appId = data.app.id;

  const load = async (from: string, to: string, address: string) => {
    const call = ++latest.current;
    setBusy(true);
    try {
      const next = await apiFetch<AppAnalytics>(`/api/apps/${appId}/analytics?from=${from}&to=${to}`);
      if (call !== latest.current) return;
      setData(next);
      window.history.replaceState(null, "", address);
    } catch (err) {
      if (call === latest.current)
        toast.error(err instanceof ApiError && err.status < 500 ? err.message : messages.analyticsLoadFailed);
    } finally {
      if (call === latest.current) setBusy(false);
    }
  };

  const loadMore = async () => {
    const cursor = data.recentRuns.nextCursor;
    if (!cursor) return;
    const call = latest.current;
    setLoadingMore(true);
    try {
      const { from, to } = data.range;
      const page = await apiFetch<AnalyticsRunsPage>(
        `/api/apps/${appId}/analytics/runs?from=${from}&to=${to}&cursor=${encodeURIComponent(cursor)}`,
      );
      if (call !== latest.current) return;
      setData((d) => ({
        ...d,
        recentRuns: { runs: [...d.recentRuns.runs, ...page.runs], nextCursor: page.nextCursor },
      }));
    } catch (err) {
      toast.error(err instanceof ApiError && err.status < 500 ? err.message : messages.analyticsLoadFailed);
    } finally {
      setLoadingMore(false);
    }
  };

  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(`${window.location.origin}/app/${appId}`);
      toast.success(messages.analyticsLinkCopied);
    } catch {
      toast.error(messages.internal);
    }
  };

  const { totals, days } = data;
  const rows: ChartRow[] = days.map((d) => ({ ...d, liveRuns: d.runs - d.demoRuns }));
  const empty = totals.runs === 0 && totals.signups === 0;

  return (
    <div className="mx-auto grid w-full max-w-6xl gap-6 p-4 sm:p-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight">{messages.analyticsTitle}</h1>
          <p className="truncate text-sm text-muted-foreground">{data.app.name}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline" size="sm">
            <Link href={`/build/app/${appId}`}>
              <PencilIcon aria-hidden="true" />
              {messages.analyticsOpenEditor}
            </Link>
          </Button>
          <Button asChild variant="outline" size="sm">
            <a href={`/app/${appId}`} target="_blank" rel="noopener">
              <ExternalLinkIcon aria-hidden="true" />
              {messages.analyticsOpenApp}
            </a>
          </Button>
        </div>
      </div>

      <RangePicker
        range={data.range}
        busy={busy}
        onPreset={(n) => {
          const { from, to } = lastDays(n);
          void load(from, to, `?days=${n}`);
        }}
        onCustom={(from, to) => void load(from, to, `?from=${from}&to=${to}`)}
      />

      <div
        className="grid gap-6 transition-opacity aria-busy:opacity-60"
        aria-busy={busy}
        data-testid="analytics-content"
        data-range={`${data.range.from}_${data.range.to}`}
      >
        <section aria-label={messages.analyticsSummary} className="grid gap-2">
          <SummaryTiles totals={totals} />
          {totals.demoRuns > 0 ? (
            <p className="text-sm text-muted-foreground" data-testid="analytics-demo-note">
              {fillTemplate(messages.analyticsDemoNote, { n: count(totals.demoRuns) })}
            </p>
          ) : null}
          {totals.unpricedRuns > 0 ? (
            <p className="text-sm text-muted-foreground">
              {fillTemplate(messages.analyticsUnpricedNote, { n: count(totals.unpricedRuns) })}
            </p>
          ) : null}
        </section>

        {empty ? (
          <EmptyState
            title={messages.analyticsEmptyTitle}
            text={messages.analyticsEmptyText}
            action={
              <div className="flex flex-wrap justify-center gap-2">
                <Button type="button" onClick={() => void copyLink()}>
                  <LinkIcon aria-hidden="true" />
                  {messages.analyticsCopyLink}
                </Button>
                <Button asChild variant="outline">
                  <a href={`/app/${appId}`} target="_blank" rel="noopener">
                    <ExternalLinkIcon aria-hidden="true" />
                    {messages.analyticsOpenApp}
                  </a>
                </Button>
              </div>
            }
          />
        ) : (
          <>
            <div className="grid gap-4 lg:grid-cols-2">
              {dayCharts(totals).map((chart) => (
                <DayChart
                  key={chart.testId}
                  testId={chart.testId}
                  title={chart.title}
                  summary={chartSummary(rows, (r) => Number(r[chart.perDay]), chart.total)}
                  rows={rows}
                  series={chart.series}
                />
              ))}
            </div>
            <div className="grid gap-4 lg:grid-cols-2">
              <StatusBreakdown statuses={data.statuses} />
              {data.app.type === "generated" && data.tools.length > 0 ? (
                <TopTools tools={data.tools} />
              ) : null}
            </div>
            {data.recentRuns.runs.length > 0 ? (
              <RecentRuns
                appId={appId}
                key={`${data.range.from}_${data.range.to}`}
                runs={data.recentRuns.runs}
                hasMore={data.recentRuns.nextCursor !== null}
                loadingMore={loadingMore}
                onLoadMore={() => void loadMore()}
              />
            ) : null}
          </>
        )}
      </div>
    </div>
  );
}

/** A count series drawn as bars or a line, in the primary colour unless told. */
const countSeries = (
  key: string,
  label: string,
  kind: ChartSeries["kind"],
  more: Partial<ChartSeries> = {},
): ChartSeries => ({ key, label, kind, color: PRIMARY, format: count, ...more });

/** The four charts over days: runs (live and demo), users, sign-ups, tokens with their cost. */
function dayCharts(totals: AppAnalytics["totals"]) {
  return [
    {
      testId: "chart-runs",
      title: messages.analyticsRunsPerDay,
      perDay: "runs",
      total: count(totals.runs),
      series: [
        countSeries("liveRuns", messages.analyticsRuns, "bar", { stack: "runs" }),
        ...(totals.demoRuns > 0
          ? [countSeries("demoRuns", messages.analyticsDemoRuns, "bar", { stack: "runs", color: SECONDARY })]
          : []),
      ],
    },
    {
      testId: "chart-users",
      title: messages.analyticsUsersPerDay,
      perDay: "users",
      total: count(totals.users),
      series: [countSeries("users", messages.analyticsUsers, "line")],
    },
    {
      testId: "chart-signups",
      title: messages.analyticsSignupsPerDay,
      perDay: "signups",
      total: count(totals.signups),
      series: [countSeries("signups", messages.analyticsSignups, "bar")],
    },
    {
      testId: "chart-tokens",
      title: messages.analyticsTokensCostPerDay,
      perDay: "tokens",
      total: `${count(totals.tokens)} ${messages.analyticsTokens.toLowerCase()}, ${formatDollars(totals.costUsd)}`,
      series: [
        countSeries("tokens", messages.analyticsTokens, "bar", { color: SECONDARY }),
        countSeries("costUsd", messages.analyticsCost, "line", {
          right: true,
          step: 0.01,
          format: formatDollars,
        }),
      ],
    },
  ] satisfies { testId: string; title: string; perDay: string; total: string; series: ChartSeries[] }[];
}
