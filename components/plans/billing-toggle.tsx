"use client";

import { useId } from "react";
import { messages } from "@/lib/messages";
import type { BillingInterval } from "@/lib/plans/schemas";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";

const options: { value: BillingInterval; label: string }[] = [
  { value: "monthly", label: messages.billingMonthly },
  { value: "yearly", label: messages.billingYearly },
];

/**
 * Monthly / yearly as a segmented control built on native radio buttons: Tab reaches the
 * chosen option, the arrow keys move between the options and choose, and it works before
 * hydration too.
 */
export function BillingToggle({
  value,
  onValueChange,
  bestSavings,
  className,
}: {
  value: BillingInterval;
  onValueChange: (value: BillingInterval) => void;
  /** The best yearly saving in percent, shown on the yearly option; null for none. */
  bestSavings: number | null;
  className?: string;
}) {
  const name = useId();
  return (
    <div
      role="radiogroup"
      aria-label={messages.billingPeriod}
      className={cn("inline-flex items-center gap-1 rounded-lg bg-muted p-1", className)}
    >
      {options.map((option) => (
        <label
          key={option.value}
          className="relative inline-flex h-8 cursor-pointer select-none items-center gap-2 rounded-md px-3 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground has-[:checked]:bg-background has-[:checked]:text-foreground has-[:checked]:shadow-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring"
        >
          <input
            type="radio"
            name={name}
            value={option.value}
            checked={value === option.value}
            onChange={() => onValueChange(option.value)}
            // One tab stop for the group (the focus trap of a dialog counts tabindex, not radio groups).
            tabIndex={value === option.value ? 0 : -1}
            // Invisible over the whole option, so a click anywhere on it lands on the radio itself.
            className="absolute inset-0 m-0 cursor-pointer appearance-none rounded-md opacity-0"
          />
          {option.label}
          {option.value === "yearly" && bestSavings !== null && (
            <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300">
              {fillTemplate(messages.planSaveUpTo, { percent: bestSavings })}
            </span>
          )}
        </label>
      ))}
    </div>
  );
}
