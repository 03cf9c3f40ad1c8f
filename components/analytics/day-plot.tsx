"use client";

import { Bar, CartesianGrid, ComposedChart, Line, Tooltip, XAxis, YAxis } from "recharts";
import type { ChartRow, ChartSeries } from "./day-chart";
import { formatDayLong, formatDayShort, niceTicks } from "./format";

/** The drawing of a DayChart (day-chart.tsx), for the eye only: its box hides it from assistive technology. */
export function DayPlot({ rows, series }: { rows: ChartRow[]; series: ChartSeries[] }) {
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
  );
}
