"use client";

import { CheckIcon } from "lucide-react";
import { useRef, useState } from "react";
import type { SelectOption } from "@/lib/space/table-columns";
import { cn } from "@/lib/utils";

// A multiselect cell's editor: the column's options as chips in their colours, each pressed or
// not. Tab reaches the group once; the arrows (and Home, End) move between chips; Space or Enter
// (or a click) toggles one. A value the list holds that is no longer an option stays a chip, so
// that it can be taken out.

/** The chips to show: the options in the schema's order, then values the list holds beyond them. */
export function chipChoices(options: SelectOption[] | null, value: readonly string[]): SelectOption[] {
  const known = options ?? [];
  const extra = value
    .filter((v, i) => !known.some((o) => o.value === v) && value.indexOf(v) === i)
    .map((v) => ({ value: v, label: v, backgroundColor: "#f1f5f9" }));
  return [...known, ...extra];
}

/** The list with `option` put in (in the options' order) or taken out. */
export function toggleChip(choices: SelectOption[], value: readonly string[], option: string): string[] {
  if (value.includes(option)) return value.filter((v) => v !== option);
  const next = new Set([...value, option]);
  return choices.map((c) => c.value).filter((v) => next.has(v));
}

export function ChipPicker({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: SelectOption[] | null;
  value: string[];
  onChange: (value: string[]) => void;
}) {
  const [choices] = useState(() => chipChoices(options, value));
  const [focused, setFocused] = useState(0);
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const move = (to: number) => {
    const i = (to + choices.length) % choices.length;
    setFocused(i);
    refs.current[i]?.focus();
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    const moves: Record<string, number> = {
      ArrowRight: focused + 1,
      ArrowDown: focused + 1,
      ArrowLeft: focused - 1,
      ArrowUp: focused - 1,
      Home: 0,
      End: choices.length - 1,
    };
    const to = moves[e.key];
    if (to === undefined) return;
    e.preventDefault();
    move(to);
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of toggle buttons, not a fieldset of a form
    <div role="group" aria-label={label} className="flex flex-wrap gap-2" onKeyDown={onKeyDown}>
      {choices.map((o, i) => {
        const on = value.includes(o.value);
        return (
          <button
            key={o.value}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            aria-pressed={on}
            tabIndex={i === focused ? 0 : -1}
            onFocus={() => setFocused(i)}
            onClick={() => onChange(toggleChip(choices, value, o.value))}
            className={cn(
              "inline-flex items-center gap-1 rounded-full border px-2.5 py-1 text-sm text-neutral-900 outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background",
              on ? "border-neutral-900 font-medium" : "border-transparent",
            )}
            style={{ backgroundColor: o.backgroundColor }}
          >
            {on ? <CheckIcon aria-hidden className="size-3.5" /> : null}
            {o.label}
          </button>
        );
      })}
    </div>
  );
}
