import "server-only";
import { findAccountById } from "@/db/queries/accounts";
import { getPlanCapabilities, type PlanCapabilities } from "./capabilities";
import { FREE_PLAN_ID } from "./catalogue";

export type OwnerPlan = { plan: string; caps: PlanCapabilities };

/**
 * The plan an app's limits come from: its owner account's (the free plan once the account is
 * gone). An admin working on someone's app works under the owner's plan, not their own.
 */
export async function ownerPlan(ownerAccountId: string): Promise<OwnerPlan> {
  const plan = (await findAccountById(ownerAccountId))?.plan ?? FREE_PLAN_ID;
  return { plan, caps: getPlanCapabilities(plan) };
}

/** The plan of the caller's own account: the free plan for a builder without one yet. */
export function sessionPlan(session: { account?: { plan: string } | null }): string {
  return session.account?.plan ?? FREE_PLAN_ID;
}
