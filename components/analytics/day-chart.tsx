"use client";

import dynamic from "next/dynamic";
import { useId } from "react";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { formatCompactNumber, formatDayLong } from "./format";

// The drawing (recharts, the largest library of the app) loads after the page's own code: it is
// drawn in the browser only (it measures its box), in a box of fixed height, so nothing shifts.
const DayPlot = dynamic(() => import("./day-plot").then((m) => m.DayPlot), { ssr: false });

/** One value per day drawn by a chart: bars (stacked when they share `stack`) or a line. */
export type ChartSeries = {
  key: string;
  label: string;
  kind: "bar" | "line";
  /** A theme colour: var(--primary), var(--muted-foreground). */
  color: string;
  /** The right-hand axis (a second unit, such as dollars beside tokens). */
  right?: boolean;
  stack?: string;
  format: (n: number) => string;
  /** The smallest step between two ticks of its axis, so that none repeats a label ($0.01 for dollars). */
  step?: number;
};

export type ChartRow = { day: string } & Record<string, number | string>;

/**
 * A chart of one value (or a few) per UTC day. The drawing is for the eye only (hidden from
 * assistive technology, not focusable); what it shows is said in words (the caption's summary)
 * and in full in a table under "Show as a table", the same numbers day by day.
 */
export function DayChart({
  title,
  summary,
  rows,
  series,
  testId,
}: {
  title: string;
  summary: string;
  rows: ChartRow[];
  series: ChartSeries[];
  testId?: string;
}) {
  const titleId = useId();

  return (
    <figure
      aria-labelledby={titleId}
      data-testid={testId}
      className="grid min-w-0 gap-3 rounded-lg border border-border bg-background p-4 shadow-sm"
    >
      <figcaption className="grid gap-1">
        <h2 id={titleId} className="font-medium">
          {title}
        </h2>
        <p className="text-sm text-muted-foreground">{summary}</p>
      </figcaption>
      {series.length > 1 ? (
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
          {series.map((s) => (
            <li key={s.key} className="flex items-center gap-1.5">
              <span
                aria-hidden="true"
                className={s.kind === "bar" ? "size-2.5 rounded-sm" : "h-0.5 w-3 rounded-full"}
                style={{ background: s.color }}
              />
              {s.label}
            </li>
          ))}
        </ul>
      ) : null}
      <div aria-hidden="true" className="h-48 min-w-0">
        <DayPlot rows={rows} series={series} />
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer rounded-sm text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring">
          {messages.analyticsShowTable}
        </summary>
        <div className="mt-2 overflow-x-auto">
          <table className="w-full text-left tabular-nums">
            <caption className="sr-only">{title}</caption>
            <thead className="text-muted-foreground">
              <tr>
                <th scope="col" className="py-1 pr-4 font-medium">
                  {messages.analyticsDay}
                </th>
                {series.map((s) => (
                  <th key={s.key} scope="col" className="py-1 pr-4 text-right font-medium">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.day} className="border-t border-border">
                  <th scope="row" className="py-1 pr-4 font-normal">
                    {formatDayLong(r.day)}
                  </th>
                  {series.map((s) => (
                    <td key={s.key} className="py-1 pr-4 text-right">
                      {s.format(Number(r[s.key]))}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

/** The caption's sentence: the total, and the busiest day (none: says so). */
export function chartSummary(rows: ChartRow[], value: (r: ChartRow) => number, total: string): string {
  let best: ChartRow | undefined;
  for (const r of rows) if (value(r) > 0 && (!best || value(r) > value(best))) best = r;
  if (!best) return messages.analyticsChartEmpty;
  return fillTemplate(messages.analyticsChartSummary, {
    total,
    day: formatDayLong(best.day),
    max: formatCompactNumber(value(best)),
  });
}
