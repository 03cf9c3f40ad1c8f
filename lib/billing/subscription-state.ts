import { FREE_PLAN_ID } from "@/lib/plans/catalogue";

// The rules that turn Stripe events, arriving in any order and possibly twice, into one
// subscription state. Pure functions: lib/billing/webhooks.ts applies them under a row lock.

/** A subscription in these states never comes back (Stripe cannot reactivate it). */
const TERMINAL = new Set(["canceled", "incomplete_expired"]);
/** The states in which the builder keeps the plan: past_due is Stripe's retry period. */
const GRANTING = new Set(["active", "trialing", "past_due"]);
/** States a paid invoice ends. */
const AWAITING_PAYMENT = new Set(["incomplete", "past_due", "unpaid"]);

export function isTerminalStatus(status: string | null): boolean {
  return status !== null && TERMINAL.has(status);
}

export function grantsPlan(status: string | null): boolean {
  return status !== null && GRANTING.has(status);
}

export function awaitsPayment(status: string | null): boolean {
  return status === null || AWAITING_PAYMENT.has(status);
}

/**
 * May an event created at `eventAt`, saying the status is `incoming`, replace the status held
 * since `heldAt`? A terminal status always wins and is never left; otherwise the newer event
 * wins. Stripe's `created` is in whole seconds, so events of one second tie: then the status
 * never steps back to 'incomplete' (a subscription is incomplete only before its first payment).
 */
export function statusIsNewer(
  held: { status: string | null; statusEventAt: Date | null },
  incoming: string,
  eventAt: Date,
): boolean {
  if (isTerminalStatus(held.status)) return false;
  if (isTerminalStatus(incoming)) return true;
  if (!held.statusEventAt) return true;
  const diff = eventAt.getTime() - held.statusEventAt.getTime();
  if (diff !== 0) return diff > 0;
  return !(incoming === "incomplete" && held.status !== null && held.status !== "incomplete");
}

/** May a subscription object created at `eventAt` replace the plan and cancellation held? */
export function detailsAreNewer(held: { detailsEventAt: Date | null }, eventAt: Date): boolean {
  return !held.detailsEventAt || eventAt.getTime() >= held.detailsEventAt.getTime();
}

/** Appends ids not yet in the list, keeping the order of arrival. */
export function appendIds(list: readonly string[], ...ids: (string | null | undefined)[]): string[] {
  const out = [...list];
  for (const id of ids) if (id && !out.includes(id)) out.push(id);
  return out;
}

/**
 * The account fields a subscription decides. The plan is the subscription's while its status
 * grants it, the free plan otherwise; an active subscription of an unknown plan leaves the
 * plan as it is (undefined).
 */
export function accountFieldsOf(sub: {
  subscriptionId: string;
  plan: string | null;
  status: string | null;
  cancelledAt: Date | null;
}) {
  const plan = grantsPlan(sub.status) ? (sub.plan ?? undefined) : FREE_PLAN_ID;
  return {
    subscriptionId: sub.subscriptionId,
    planSubscriptionStatus: sub.status,
    planSubscriptionCancelledAt: sub.cancelledAt,
    ...(plan ? { plan } : {}),
  };
}

/**
 * Does an event about a subscription speak for the account? Yes for the subscription the
 * account follows. Another one of the buyer is taken up when it grants a plan and the account
 * follows none, or one that no longer grants a plan (its checkout completion may still be on
 * its way). A completed checkout always switches (`adopt`).
 */
export function speaksForAccount(
  account: { subscriptionId: string | null; planSubscriptionStatus: string | null },
  sub: { subscriptionId: string; status: string | null },
  adopt: boolean,
): boolean {
  if (adopt || account.subscriptionId === sub.subscriptionId) return true;
  const followsLiveOne = account.subscriptionId !== null && grantsPlan(account.planSubscriptionStatus);
  return !followsLiveOne && grantsPlan(sub.status);
}
