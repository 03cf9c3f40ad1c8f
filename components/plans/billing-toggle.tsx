"use client";

import { RadioGroup } from "radix-ui";
import { messages } from "@/lib/messages";
import type { BillingInterval } from "@/lib/plans/schemas";
import { fillTemplate } from "@/lib/plans/text";
import { cn } from "@/lib/utils";

const options: { value: BillingInterval; label: string }[] = [
  { value: "monthly", label: messages.billingMonthly },
  { value: "yearly", label: messages.billingYearly },
];

/**
 * Monthly / yearly as a segmented control. A radio group underneath: Tab reaches the chosen
 * option, the arrow keys move between them (and choose), Space chooses.
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
  return (
    <RadioGroup.Root
      aria-label={messages.billingPeriod}
      orientation="horizontal"
      value={value}
      onValueChange={(next) => onValueChange(next as BillingInterval)}
      className={cn("inline-flex items-center gap-1 rounded-lg bg-muted p-1", className)}
    >
      {options.map((option) => (
        <RadioGroup.Item
          key={option.value}
          value={option.value}
          className="inline-flex h-8 items-center gap-2 rounded-md px-3 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring data-[state=checked]:bg-background data-[state=checked]:text-foreground data-[state=checked]:shadow-sm"
        >
          {option.label}
          {option.value === "yearly" && bestSavings !== null && (
            <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-800">
              {fillTemplate(messages.planSaveUpTo, { percent: bestSavings })}
            </span>
          )}
        </RadioGroup.Item>
      ))}
    </RadioGroup.Root>
  );
}
