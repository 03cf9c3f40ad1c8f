"use client";

import { useEffect, useState } from "react";

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** "5 minutes ago", "yesterday", "just now": the largest unit that fits. */
export function relativeTime(iso: string, now: number): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const rtf = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return rtf.format(Math.trunc(seconds / size), unit);
  }
  return rtf.format(0, "second");
}

const fullDate = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "short" }).format(new Date(iso));

/**
 * A time shown relative to now, with the full date in its title. It ticks every minute. The
 * server renders it in its own clock and time zone, so the browser's first render may differ:
 * that difference is expected, hence suppressHydrationWarning.
 */
export function RelativeTime({ iso, template }: { iso: string; template?: (time: string) => string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  const text = relativeTime(iso, now);
  return (
    <time dateTime={iso} title={fullDate(iso)} suppressHydrationWarning>
      {template ? template(text) : text}
    </time>
  );
}
