import { formatCompactNumber, formatDollars } from "@/lib/format/number";

// Labels of the analytics page. Days are UTC days ('YYYY-MM-DD'), written the same on the
// server and in every browser (fixed locale and zone: no hydration mismatch).

const dayShort = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
const dayLong = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});

const utc = (day: string) => new Date(`${day}T00:00:00Z`);

/** "3 Mar" */
export const formatDayShort = (day: string) => dayShort.format(utc(day));
/** "3 Mar 2026" */
export const formatDayLong = (day: string) => dayLong.format(utc(day));

export { formatCompactNumber, formatDollars };

/** "1.2 s", "850 ms" */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Round ticks from 0 up past `max`: steps of 1, 2 or 5 times a power of ten, at least `minStep`. */
export function niceTicks(max: number, minStep: number, count = 4): number[] {
  if (!(max > 0)) return [0];
  const raw = Math.max(minStep, max / count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw - 1e-12)!;
  const ticks: number[] = [];
  for (let i = 0; i * step < max + step - 1e-12; i++) ticks.push(Math.round(i * step * 1e6) / 1e6);
  return ticks;
}
