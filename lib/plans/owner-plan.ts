import "server-only";
import { findAccountById } from "@/db/queries/accounts";
import { findAppWithOwnerPlan } from "@/db/queries/apps";
import type { App } from "@/db/schema";
import { getPlanCapabilities, type PlanCapabilities } from "./capabilities";
import { FREE_PLAN_ID } from "./catalogue";

export type OwnerPlan = { plan: string; caps: PlanCapabilities };

/** A plan and its limits; no plan (no account, or an account gone) is the free plan. */
export function planOf(plan: string | null | undefined): OwnerPlan {
  const id = plan ?? FREE_PLAN_ID;
  return { plan: id, caps: getPlanCapabilities(id) };
}

/**
 * The plan an app's limits come from: its owner account's (the free plan once the account is
 * gone). An admin working on someone's app works under the owner's plan, not their own.
 *
 * A request never calls this: the route wrapper hands the owner's plan to the handler (ctx.owner,
 * read with the app in one statement: findAppWithOwner) and services take it as an argument.
 */
export async function ownerPlan(ownerAccountId: string): Promise<OwnerPlan> {
  return planOf((await findAccountById(ownerAccountId))?.plan);
}

/** An app with the plan of its owner: the limits of whatever is done to it. */
export type AppWithOwner = { app: App; owner: OwnerPlan };

/** An app and its owner's plan, read in one statement; undefined when there is no such app. */
export async function findAppWithOwner(appId: string): Promise<AppWithOwner | undefined> {
  const row = await findAppWithOwnerPlan(appId);
  return row && { app: row.app, owner: planOf(row.ownerPlan) };
}

/** The plan of the caller's own account (read with their session): the free plan for a builder without one yet. */
export function sessionPlan(session: { account?: { plan: string } | null }): string {
  return session.account?.plan ?? FREE_PLAN_ID;
}
