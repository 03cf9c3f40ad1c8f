"use client";

import { CheckIcon, CircleAlertIcon, Loader2Icon } from "lucide-react";
import type * as React from "react";
import { useId } from "react";
import { Button } from "@/components/ui/button";
import { messages } from "@/lib/messages";
import { type PlanCardState, planButton, priceDisplay, purchaseInterval } from "@/lib/plans/pricing";
import type { BillingInterval, PlanCard as PlanCardData } from "@/lib/plans/schemas";
import { cn } from "@/lib/utils";

export type PlanCardProps = {
  plan: PlanCardData;
  state: PlanCardState;
  interval: BillingInterval;
  /** The label on top of a highlighted card ("Most popular", "Recommended"); null for none. */
  highlight: string | null;
  /** This card's checkout (or plan switch) is under way. */
  busy: boolean;
  /** Another card's checkout or switch is under way: this one waits. */
  locked: boolean;
  onChoose: () => void;
  heading?: "h2" | "h3";
  /** The id of a banner above the cards that already says why checkout is unavailable. */
  unavailableNoticeId?: string;
};

/**
 * One plan: name, price in the chosen interval, its button in the card's state, features.
 * When checkout is not available in that interval (Stripe or the plan's price not configured)
 * the button is disabled and the reason, naming what to set, is written under it.
 * A list item whose four parts sit on the rows of the parent grid (subgrid), so prices,
 * buttons and features line up across the cards whatever the text lengths.
 */
export function PlanCard({
  plan,
  state,
  interval,
  highlight,
  busy,
  locked,
  onChoose,
  heading: Heading = "h3",
  unavailableNoticeId,
}: PlanCardProps) {
  const price = priceDisplay(plan, interval);
  const button = planButton(plan, state, plan.checkout[purchaseInterval(plan, interval)]);
  const reasonId = useId();
  return (
    <li
      data-plan={plan.id}
      data-state={state}
      className={cn(
        "relative row-span-4 grid min-w-0 grid-rows-subgrid gap-4 rounded-lg border border-border bg-background p-4",
        highlight && "border-primary shadow-md ring-1 ring-primary",
        state === "selected" && !highlight && "bg-muted/50",
      )}
    >
      {highlight && (
        <span className="absolute -top-2.5 left-5 rounded-full bg-primary px-2.5 py-0.5 text-xs font-medium text-primary-foreground">
          {highlight}
        </span>
      )}
      <div className="grid gap-1">
        <Heading className="text-base font-semibold">{plan.name}</Heading>
        <p className="text-sm text-muted-foreground">{plan.description}</p>
      </div>
      <div className="grid content-start gap-1">
        <p className="flex flex-wrap items-baseline gap-x-1.5">
          {price.regular && (
            <s className="text-sm text-muted-foreground">
              <span className="sr-only">{messages.planRegularPrice} </span>
              {price.regular}
            </s>
          )}
          <span className="text-2xl font-semibold tracking-tight tabular-nums">{price.amount}</span>
          {price.suffix && <span className="text-sm text-muted-foreground">{price.suffix}</span>}
        </p>
        {/* Same height in both intervals, so switching never moves the buttons. */}
        <p className="flex min-h-6 flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
          <span>{price.note}</span>
          {price.saveBadge && (
            <span className="rounded-full bg-emerald-100 px-2 py-0.5 font-medium text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300">
              {price.saveBadge}
            </span>
          )}
        </p>
      </div>
      <div className="grid content-start gap-2">
        <Button
          type="button"
          variant={
            !button.unavailable && (state === "upgrade" || (state === "none" && button.enabled))
              ? "default"
              : "outline"
          }
          disabled={!button.enabled || locked || busy}
          aria-busy={busy || undefined}
          aria-describedby={button.unavailable ? (unavailableNoticeId ?? reasonId) : undefined}
          onClick={onChoose}
          className="h-auto min-h-9 w-full whitespace-normal py-2 text-center"
        >
          {busy && <Loader2Icon aria-hidden className="animate-spin motion-reduce:animate-none" />}
          {button.label}
        </Button>
        {button.unavailable && !unavailableNoticeId && (
          <p
            id={reasonId}
            data-slot="checkout-unavailable"
            className="flex gap-1.5 text-xs text-muted-foreground [overflow-wrap:anywhere]"
          >
            <CircleAlertIcon
              aria-hidden
              className="mt-px size-3.5 shrink-0 text-amber-600 dark:text-amber-400"
            />
            <span>{breakableNames(button.unavailable)}</span>
          </p>
        )}
      </div>
      <ul className="grid content-start gap-2 text-sm">
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-2">
            <CheckIcon
              aria-hidden
              className="mt-0.5 size-4 shrink-0 text-emerald-600 dark:text-emerald-400"
            />
            <span>{feature}</span>
          </li>
        ))}
      </ul>
    </li>
  );
}

// Variable names (STRIPE_WEBHOOK_SECRET) are longer than a narrow card: let them wrap after an
// underscore rather than mid-word. <wbr> rather than a zero-width space, so a copied name is exact.
function breakableNames(text: string): React.ReactNode {
  const parts = text.split("_");
  return parts.flatMap((part, i) =>
    // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one fixed string never move.
    i === parts.length - 1 ? [part] : [`${part}_`, <wbr key={i} />],
  );
}
