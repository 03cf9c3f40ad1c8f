"use client";

import { CircleAlertIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import type * as React from "react";
import { useId, useState } from "react";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { messages } from "@/lib/messages";
import {
  bestYearlySavings,
  currentPlanId,
  defaultInterval,
  planCardState,
  purchaseInterval,
  sharedUnavailableReason,
} from "@/lib/plans/pricing";
import type { BillingInterval, PlanCard as PlanCardData } from "@/lib/plans/schemas";
import { cn } from "@/lib/utils";
import { BillingToggle } from "./billing-toggle";
import { PlanCard } from "./plan-card";
import { followPlanChange, type PlanRequest, requestPlan } from "./request-plan";

/** Asks the server for a plan (requestPlan); replaceable for tests and stories. */
export type ChoosePlan = (
  planId: string,
  interval: BillingInterval,
  confirmChange?: boolean,
) => Promise<PlanRequest>;

type PendingSwitch = Extract<PlanRequest, { kind: "confirm" }> & {
  planId: string;
  interval: BillingInterval;
};

export type PlanPickerProps = {
  plans: PlanCardData[];
  /** The account's plan; null when unknown (the cards then show no current/upgrade state). */
  accountPlan: string | null;
  /** A plan to point at (the one that lifts a limit, or ?plan= on /joinplan). */
  highlightPlanId?: string;
  /** "single": only the highlighted plan, with a way to compare all; "row": every plan. */
  layout?: "single" | "row";
  onChoose?: ChoosePlan;
  /** Called once a switch of the running subscription has been applied (the dialog closes). */
  onPlanChanged?: () => void;
  cardHeading?: "h2" | "h3";
};

/** The billing toggle and the plan cards, shared by the upgrade dialog and /joinplan. */
export function PlanPicker({
  plans,
  accountPlan,
  highlightPlanId,
  layout = "row",
  onChoose = requestPlan,
  onPlanChanged,
  cardHeading,
}: PlanPickerProps) {
  const router = useRouter();
  const [interval, setBillingInterval] = useState<BillingInterval>(() => defaultInterval(plans));
  const highlighted = plans.find((p) => p.id === highlightPlanId);
  const [showAll, setShowAll] = useState(layout === "row" || !highlighted);
  const [busyPlan, setBusyPlan] = useState<string | null>(null);

  const current = currentPlanId(plans, accountPlan);
  const visible = showAll || !highlighted ? plans : [highlighted];
  const hasYearly = defaultInterval(plans) === "yearly";

  // A builder already paying is asked first: the server answers with the question (the change
  // is prorated), and only a confirmed request switches the subscription.
  const [pendingSwitch, setPendingSwitch] = useState<PendingSwitch | null>(null);

  const choose = async (planId: string, chosen: BillingInterval, confirmChange = false) => {
    setBusyPlan(planId);
    const answer = await onChoose(planId, chosen, confirmChange);
    if (answer.kind === "leaving") return; // the button stays busy until the page goes
    if (answer.kind === "confirm") setPendingSwitch({ ...answer, planId, interval: chosen });
    if (answer.kind === "changing" && (await followPlanChange(answer))) {
      router.refresh(); // the server-rendered parts (the plan in the sidebar) show the new plan
      onPlanChanged?.();
    }
    setBusyPlan(null);
  };

  // Said once, above the cards, instead of under each of them.
  const noticeId = useId();
  const sharedReason = sharedUnavailableReason(visible, current, interval);

  const highlightLabel = (plan: PlanCardData): string | null => {
    if (highlighted) return plan.id === highlighted.id ? messages.planRecommended : null;
    return plan.isMostPopular ? messages.planMostPopular : null;
  };

  return (
    <div className="grid gap-6">
      {hasYearly && (
        <BillingToggle
          value={interval}
          onValueChange={setBillingInterval}
          bestSavings={bestYearlySavings(visible)}
          className="justify-self-center"
        />
      )}
      {sharedReason && (
        <p
          id={noticeId}
          role="note"
          data-slot="checkout-unavailable"
          className="mx-auto flex max-w-3xl items-start gap-2 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
        >
          <CircleAlertIcon aria-hidden className="mt-0.5 size-4 shrink-0" />
          <span className="[overflow-wrap:anywhere]">{sharedReason}</span>
        </p>
      )}
      <div className="@container">
        <ul
          style={{ "--plan-count": visible.length } as React.CSSProperties}
          className={cn(
            "grid gap-x-4 gap-y-6 pt-2",
            visible.length === 1
              ? "mx-auto w-full max-w-sm"
              : // Five cards side by side only where each gets room (a 72rem container); fewer
                // columns, wrapping, below that. One column on a phone.
                "@xl:grid-cols-2 @4xl:grid-cols-3 @6xl:grid-cols-[repeat(var(--plan-count),minmax(0,1fr))]",
          )}
        >
          {visible.map((plan) => (
            <PlanCard
              key={plan.id}
              plan={plan}
              state={planCardState(plan, current)}
              interval={interval}
              highlight={highlightLabel(plan)}
              busy={busyPlan === plan.id}
              locked={busyPlan !== null && busyPlan !== plan.id}
              onChoose={() => void choose(plan.id, purchaseInterval(plan, interval))}
              heading={cardHeading}
              unavailableNoticeId={sharedReason ? noticeId : undefined}
            />
          ))}
        </ul>
      </div>
      {!showAll && (
        <Button type="button" variant="link" className="justify-self-center" onClick={() => setShowAll(true)}>
          {messages.planCompareAll}
        </Button>
      )}
      <ConfirmDialog
        open={pendingSwitch !== null}
        onOpenChange={(open) => {
          if (!open) setPendingSwitch(null);
        }}
        title={pendingSwitch?.title}
        description={pendingSwitch?.message}
        confirmLabel={pendingSwitch?.confirmLabel}
        onConfirm={() => {
          if (pendingSwitch) void choose(pendingSwitch.planId, pendingSwitch.interval, true);
        }}
      />
    </div>
  );
}
