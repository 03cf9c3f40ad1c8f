import { ANALYTICS_DEFAULT_DAYS } from "@/lib/constants";

// Ranges of UTC days ('YYYY-MM-DD', both ends included), shared by the analytics page and the
// service: runs are counted by the UTC day they started, whatever the viewer's time zone.

const DAY_MS = 86_400_000;

/** Today's UTC day. */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** `day` moved by `n` days (negative: earlier). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included (0 or less when `to` is earlier). */
export function rangeDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** The last `days` days up to today, today included. */
export function lastDays(days: number, now: Date = new Date()): { from: string; to: string } {
  const to = todayUtc(now);
  return { from: addDays(to, -(days - 1)), to };
}

/**
 * The range a request names: both ends as given; one end missing is filled so that the range has
 * the default length (or ends today); none: the default range up to today.
 */
export function resolveRange(
  q: { from?: string; to?: string },
  now: Date = new Date(),
): { from: string; to: string } {
  if (q.from && q.to) return { from: q.from, to: q.to };
  if (q.to) return { from: addDays(q.to, -(ANALYTICS_DEFAULT_DAYS - 1)), to: q.to };
  if (q.from) return { from: q.from, to: todayUtc(now) };
  return lastDays(ANALYTICS_DEFAULT_DAYS, now);
}

/** A real calendar day written 'YYYY-MM-DD' (2026-02-30 is not one). */
export function isIsoDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const t = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === value;
}
