"use client";

import { type FormEvent, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { isIsoDay, rangeDays, todayUtc } from "@/lib/analytics/range";
import { ANALYTICS_MAX_DAYS, ANALYTICS_PRESET_DAYS } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";
import { formatDayLong } from "./format";

export type Range = { from: string; to: string; days: number };

/** Which preset a range is ("the last N days" up to today), if any. */
export function presetOf(range: Range, today: string = todayUtc()): number | null {
  return range.to === today && (ANALYTICS_PRESET_DAYS as readonly number[]).includes(range.days)
    ? range.days
    : null;
}

/**
 * The period: the last 7, 30 or 90 UTC days, or two days of the builder's choice (both included,
 * at most ANALYTICS_MAX_DAYS apart).
 */
export function RangePicker({
  range,
  busy,
  onPreset,
  onCustom,
}: {
  range: Range;
  busy: boolean;
  onPreset: (days: number) => void;
  onCustom: (from: string, to: string) => void;
}) {
  const preset = presetOf(range);
  const [custom, setCustom] = useState(preset === null);
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  const [invalid, setInvalid] = useState(false);
  const ids = { from: useId(), to: useId(), error: useId() };
  const today = todayUtc();

  const apply = (e: FormEvent) => {
    e.preventDefault();
    const ok =
      isIsoDay(from) && isIsoDay(to) && rangeDays(from, to) >= 1 && rangeDays(from, to) <= ANALYTICS_MAX_DAYS;
    setInvalid(!ok);
    if (ok) onCustom(from, to);
  };

  const choice = (active: boolean) =>
    cn("h-8 px-3 text-xs", active && "bg-primary text-primary-foreground hover:bg-primary/90");

  return (
    <div className="grid gap-3">
      <fieldset className="flex flex-wrap items-center gap-2">
        <legend className="sr-only">{messages.analyticsRange}</legend>
        {ANALYTICS_PRESET_DAYS.map((days) => (
          <Button
            key={days}
            type="button"
            variant="outline"
            className={choice(!custom && preset === days)}
            aria-pressed={!custom && preset === days}
            disabled={busy}
            onClick={() => {
              setCustom(false);
              setInvalid(false);
              onPreset(days);
            }}
          >
            {fillTemplate(messages.analyticsLastDays, { n: days })}
          </Button>
        ))}
        <Button
          type="button"
          variant="outline"
          className={choice(custom)}
          aria-pressed={custom}
          aria-expanded={custom}
          disabled={busy}
          onClick={() => {
            setFrom(range.from);
            setTo(range.to);
            setCustom(true);
          }}
        >
          {messages.analyticsCustom}
        </Button>
      </fieldset>
      {custom ? (
        <form onSubmit={apply} className="flex flex-wrap items-end gap-3" noValidate>
          {(
            [
              { id: ids.from, label: messages.analyticsFrom, value: from, set: setFrom },
              { id: ids.to, label: messages.analyticsTo, value: to, set: setTo },
            ] as const
          ).map((f) => (
            <div key={f.id} className="grid gap-1.5">
              <Label htmlFor={f.id}>{f.label}</Label>
              <Input
                id={f.id}
                type="date"
                value={f.value}
                max={today}
                onChange={(e) => f.set(e.target.value)}
                aria-invalid={invalid || undefined}
                aria-describedby={invalid ? ids.error : undefined}
                className="w-40"
                required
              />
            </div>
          ))}
          <Button type="submit" size="sm" className="h-9" disabled={busy}>
            {messages.analyticsApply}
          </Button>
          {invalid ? (
            <p id={ids.error} role="alert" className="basis-full text-sm text-destructive">
              {fillTemplate(messages.analyticsRangeInvalid, { n: ANALYTICS_MAX_DAYS })}
            </p>
          ) : null}
        </form>
      ) : null}
      <p className="text-sm text-muted-foreground" data-testid="analytics-range" aria-live="polite">
        {fillTemplate(messages.analyticsRangeShown, {
          from: formatDayLong(range.from),
          to: formatDayLong(range.to),
        })}
      </p>
    </div>
  );
}
