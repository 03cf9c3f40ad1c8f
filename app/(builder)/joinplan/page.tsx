import type { Metadata } from "next";
import { PlanPicker } from "@/components/plans/plan-picker";
import { PlansByAdministrator } from "@/components/plans/plans-by-administrator";
import { getPageSession } from "@/lib/auth/page-session";
import { listPlanCards } from "@/lib/billing/plan-cards";
import { messages } from "@/lib/messages";

export const metadata: Metadata = { title: messages.joinPlanTitle };

// /joinplan?plan= - the plan cards inline; ?plan= (a card's link) highlights that plan.
export default async function JoinPlanPage({
  searchParams,
}: {
  searchParams: Promise<{ plan?: string | string[] }>;
}) {
  const session = await getPageSession();
  const { plans, paymentsConfigured } = listPlanCards();
  const { plan } = await searchParams;
  const highlight = plans.find((p) => p.id === plan)?.id;
  return (
    <div className="mx-auto grid w-full max-w-7xl gap-8 p-6">
      <div className="grid gap-1 text-center">
        <h1 className="text-2xl font-semibold tracking-tight">{messages.joinPlanTitle}</h1>
        <p className="text-sm text-muted-foreground">{messages.joinPlanDescription}</p>
      </div>
      {!paymentsConfigured && <PlansByAdministrator isAdmin={session?.account?.isAdmin ?? false} />}
      <PlanPicker
        plans={plans}
        accountPlan={session?.account?.plan ?? null}
        highlightPlanId={highlight}
        cardHeading="h2"
      />
    </div>
  );
}
