import Link from "next/link";
import { Button } from "@/components/ui/button";
import type { SessionAccount } from "@/db/queries/sessions";
import { messages } from "@/lib/messages";
import { isBuilderAccountView } from "@/lib/plans/capabilities";
import { findPlan } from "@/lib/plans/catalogue";
import { fillTemplate } from "@/lib/text";

/**
 * The account's plan in /settings. The builder account view (a builder with business
 * info or a paid plan) shows the subscription; everyone else gets the free plan and an upgrade.
 */
export function PlanSection({ account }: { account: SessionAccount }) {
  const plan = findPlan(account.plan).name;
  const builderView = isBuilderAccountView(account);
  return (
    <section className="grid gap-3">
      <h2 className="font-medium">{messages.settingsPlanHeading}</h2>
      {builderView ? (
        <div className="grid gap-1 text-sm">
          <p>{fillTemplate(messages.settingsPlanCurrent, { plan })}</p>
          {account.planSubscriptionStatus && (
            <p className="text-muted-foreground">
              {fillTemplate(messages.settingsPlanStatus, { status: account.planSubscriptionStatus })}
            </p>
          )}
          {account.planSubscriptionCancelledAt && (
            <p className="text-muted-foreground">
              {fillTemplate(messages.settingsPlanCancelled, {
                date: account.planSubscriptionCancelledAt.toISOString().slice(0, 10),
              })}
            </p>
          )}
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">{fillTemplate(messages.settingsPlanFree, { plan })}</p>
      )}
      <Button asChild variant={builderView ? "outline" : "default"} className="justify-self-start">
        <Link href="/settings?goto=upgrade_app_plan">
          {builderView ? messages.settingsChangePlan : messages.settingsUpgrade}
        </Link>
      </Button>
    </section>
  );
}
