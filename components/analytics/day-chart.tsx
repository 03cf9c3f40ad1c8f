"use client";

import { useId } from "react";
import { Bar, CartesianGrid, ComposedChart, Line, Tooltip, XAxis, YAxis } from "recharts";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { formatCompactNumber, formatDayLong, formatDayShort, niceTicks } from "./format";

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
  const right = series.find((s) => s.right);
  const left = series.find((s) => !s.right)!;
  const rightTicks = right
    ? niceTicks(Math.max(0, ...rows.map((r) => Number(r[right.key]))), right.step ?? 1)
    : undefined;
  const stacks = new Map<string, ChartSeries[]>();
  for (const s of series) if (s.stack) stacks.set(s.stack, [...(stacks.get(s.stack) ?? []), s]);
  // Round the top of a bar only: the last series of a stack.
  const isTop = (s: ChartSeries) => !s.stack || stacks.get(s.stack)!.at(-1) === s;

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
        <ComposedChart
          responsive
          accessibilityLayer={false}
          style={{ width: "100%", height: "100%" }}
          data={rows}
          margin={{ top: 4, right: right ? 4 : 8, bottom: 0, left: 0 }}
        >
          <CartesianGrid vertical={false} stroke="var(--border)" />
          <XAxis
            dataKey="day"
            tickFormatter={formatDayShort}
            tick={{ fill: "var(--muted-foreground)", fontSize: 12 }}
            tickLine={false}
            axisLine={{ stroke: "var(--border)" }}
            interval="preserveStartEnd"
            minTickGap={24}
          />
          <YAxis
            yAxisId="left"
            allowDecimals={false}
            tickFormatter={(n: number) => left.format(n)}
            tick={{ fill: "var(--muted-foreground)", fontSize: 12 }}
            tickLine={false}
            axisLine={false}
            width={44}
          />
          {right ? (
            <YAxis
              yAxisId="right"
              orientation="right"
              ticks={rightTicks}
              domain={[0, rightTicks?.at(-1) ?? 0]}
              tickFormatter={(n: number) => right.format(n)}
              tick={{ fill: "var(--muted-foreground)", fontSize: 12 }}
              tickLine={false}
              axisLine={false}
              width={52}
            />
          ) : null}
          <Tooltip
            cursor={{ fill: "var(--muted)" }}
            contentStyle={{
              background: "var(--background)",
              border: "1px solid var(--border)",
              borderRadius: 6,
              color: "var(--foreground)",
              fontSize: 12,
            }}
            labelFormatter={(day) => formatDayLong(String(day))}
            formatter={(value, _name, item) => {
              const s = series.find((x) => x.key === item.dataKey);
              return [s ? s.format(Number(value)) : String(value), s?.label ?? ""];
            }}
          />
          {series.map((s) =>
            s.kind === "bar" ? (
              <Bar
                key={s.key}
                dataKey={s.key}
                name={s.label}
                yAxisId={s.right ? "right" : "left"}
                stackId={s.stack}
                fill={s.color}
                radius={isTop(s) ? [3, 3, 0, 0] : 0}
                maxBarSize={28}
                isAnimationActive={false}
              />
            ) : (
              <Line
                key={s.key}
                dataKey={s.key}
                name={s.label}
                yAxisId={s.right ? "right" : "left"}
                type="monotone"
                stroke={s.color}
                strokeWidth={2}
                dot={false}
                isAnimationActive={false}
              />
            ),
          )}
        </ComposedChart>
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
