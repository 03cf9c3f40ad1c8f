"use client";

import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Skeleton } from "@/components/ui/skeleton";
import { messages } from "@/lib/messages";
import { recommendedPlanFor, type UpgradeReason, upgradeReasonMessage } from "@/lib/plans/upgrade-reasons";
import { type ChoosePlan, PlanPicker } from "./plan-picker";
import { PlansByAdministrator } from "./plans-by-administrator";
import { usePlanData } from "./use-plan-data";

export type UpgradeDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The limit that was hit; the dialog says why and shows the plan that lifts it. */
  reason?: UpgradeReason;
  /** Show this plan alone, highlighted. */
  planId?: string;
  appId?: string;
  onChoose?: ChoosePlan;
};

/**
 * The upgrade-plan dialog: one highlighted plan, or a row of plan cards, with a
 * monthly/yearly choice. Open it through openUpgradeDialog(); UpgradeDialogHost renders it.
 */
export function UpgradeDialog({ open, onOpenChange, reason, planId, appId, onChoose }: UpgradeDialogProps) {
  const data = usePlanData(open, appId);
  const description = reason ? messages[upgradeReasonMessage(reason)] : messages.upgradeDialogDescription;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent size="xl" aria-busy={data.status === "loading" || undefined}>
        <DialogHeader className="items-center pr-0 text-center">
          <DialogTitle>{messages.upgradeDialogTitle}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {data.status === "loading" && <PlanSkeleton />}
        {data.status === "error" && (
          <div role="alert" className="grid justify-items-center gap-3 py-10 text-center text-sm">
            <p>{data.message}</p>
            <Button type="button" variant="outline" onClick={data.retry}>
              {messages.retry}
            </Button>
          </div>
        )}
        {data.status === "ready" && !data.paymentsConfigured && (
          <PlansByAdministrator isAdmin={data.isAdmin} />
        )}
        {data.status === "ready" && (
          <PlanPicker
            plans={data.plans}
            accountPlan={data.accountPlan}
            {...highlightFor(reason, planId, data.accountPlan)}
            onChoose={onChoose}
            onPlanChanged={() => onOpenChange(false)}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

// A plan asked for by id shows alone; so does the plan that lifts the limit behind a reason.
// With neither (or when nothing above the current plan lifts it) every plan shows.
function highlightFor(
  reason: UpgradeReason | undefined,
  planId: string | undefined,
  accountPlan: string | null,
) {
  const highlightPlanId =
    planId ?? (reason ? (recommendedPlanFor(reason, accountPlan ?? "") ?? undefined) : undefined);
  return { highlightPlanId, layout: highlightPlanId ? ("single" as const) : ("row" as const) };
}

function PlanSkeleton() {
  return (
    <div className="grid gap-6">
      <Skeleton className="h-10 w-64 justify-self-center" />
      <div className="grid gap-4 sm:grid-cols-3 lg:grid-cols-5">
        {[0, 1, 2, 3, 4].map((i) => (
          <Skeleton key={i} className="h-80" />
        ))}
      </div>
    </div>
  );
}
