import "server-only";
import crypto from "node:crypto";
import Stripe from "stripe";
import { failCheckoutSale, insertCheckoutSale } from "@/db/queries/billing";
import type { Session } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { logError } from "@/lib/log";
import { messages } from "@/lib/messages";
import { planRank } from "@/lib/plans/capabilities";
import { findPlan, type PlanDefinition } from "@/lib/plans/catalogue";
import type { BillingInterval, CheckoutAnswer } from "@/lib/plans/schemas";
import { fillTemplate } from "@/lib/text";
import { stripeClient } from "./stripe";
import { grantsPlan } from "./subscription-state";

// Switching plans while a subscription runs (Stripe's "change the price of an existing
// subscription"): the one subscription's item gets the new price, prorated, instead of a
// second subscription being sold beside it. The account's plan still changes only when
// Stripe's signed customer.subscription.updated arrives (lib/billing/webhooks.ts reads the plan
// from the new price); that event also settles the change's record, which the client polls.

/** The subscription an account pays for, as Stripe has it now. */
export type LiveSubscription = {
  id: string;
  itemId: string;
  priceId: string;
  interval: BillingInterval;
};

type BillingAccount = {
  accountId: string;
  plan: string;
  subscriptionId: string | null;
  planSubscriptionStatus: string | null;
};

/**
 * The subscription the account follows, if it still grants a plan (active, trialing, past_due).
 * Our copy says whether to ask (availability.ts changesRunningSubscription); Stripe's answer
 * decides: one that has ended or that Stripe does not know (deleted, or kept from test mode) is
 * null, and a new checkout is then right. Any other failure is an error: never sell a second
 * subscription when unsure about the first.
 */
export async function findLiveSubscription(account: BillingAccount): Promise<LiveSubscription | null> {
  if (!account.subscriptionId) return null;
  let sub: Stripe.Subscription;
  try {
    sub = await stripeClient().subscriptions.retrieve(account.subscriptionId);
  } catch (err) {
    if (err instanceof Stripe.errors.StripeInvalidRequestError && err.code === "resource_missing")
      return null;
    logError("stripe subscription retrieve failed", { err, subscriptionId: account.subscriptionId });
    throw new AppError("INTERNAL", "planChangeFailed", "PLAN_CHANGE_FAILED");
  }
  const item = sub.items?.data?.[0];
  if (!item || !grantsPlan(sub.status)) return null;
  return {
    id: sub.id,
    itemId: item.id,
    priceId: item.price.id,
    interval: item.price.recurring?.interval === "year" ? "yearly" : "monthly",
  };
}

const intervalWord = (interval: BillingInterval) =>
  interval === "yearly" ? messages.intervalYearly : messages.intervalMonthly;

/**
 * What the builder is asked before the switch: the plans, and how Stripe bills it. The same
 * billing period keeps its dates and the difference is prorated onto the next invoice (an
 * upgrade adds, a downgrade credits); a new billing period is charged at once, less a credit.
 */
export function planChangeQuestion(
  fromPlan: string,
  to: PlanDefinition,
  live: Pick<LiveSubscription, "interval">,
  interval: BillingInterval,
): Extract<CheckoutAnswer, { kind: "confirmChange" }> {
  const from = findPlan(fromPlan);
  const vars = {
    from: from.name,
    plan: to.name,
    fromInterval: intervalWord(live.interval),
    interval: intervalWord(interval),
  };
  const template =
    live.interval !== interval
      ? messages.planChangeNewPeriod
      : planRank(to.id) >= planRank(from.id)
        ? messages.planChangeUpgradeProrated
        : messages.planChangeDowngradeProrated;
  return {
    kind: "confirmChange",
    title: fillTemplate(messages.planChangeTitle, vars),
    message: fillTemplate(template, vars),
    confirmLabel: fillTemplate(messages.planChangeConfirm, vars),
  };
}

/**
 * Gives the live subscription the new price. The change is recorded first (a pending sale,
 * `chg_...`) and named in the subscription's metadata, so the webhook that confirms it can
 * settle it even when it arrives before Stripe's answer does. error_if_incomplete: when the
 * change must be paid at once (a new billing period) and the payment fails, Stripe changes
 * nothing and answers 402, rather than leaving the subscription past due on the new price.
 */
export async function changeSubscriptionPlan(
  session: Session,
  live: LiveSubscription,
  to: PlanDefinition,
  interval: BillingInterval,
  price: string,
): Promise<Extract<CheckoutAnswer, { kind: "planChange" }>> {
  const changeId = `chg_${crypto.randomBytes(18).toString("base64url")}`;
  await insertCheckoutSale({
    saleId: changeId,
    userId: session.userId,
    email: session.email,
    plan: to.id,
    interval,
  });
  try {
    await stripeClient().subscriptions.update(
      live.id,
      {
        items: [{ id: live.itemId, price }],
        proration_behavior: "create_prorations",
        payment_behavior: "error_if_incomplete",
        // Merged into the subscription's metadata by Stripe; userId and accountId were set at checkout.
        metadata: {
          userId: session.userId,
          ...(session.account ? { accountId: session.account.accountId } : {}),
          planId: to.id,
          interval,
          planChangeId: changeId,
        },
      },
      { idempotencyKey: changeId },
    );
  } catch (err) {
    // A lost answer to an update Stripe did make: its webhook may already have settled it.
    if ((await failCheckoutSale(changeId)) === "paid") {
      return { kind: "planChange", saleId: changeId, plan: to.id, interval };
    }
    if (err instanceof Stripe.errors.StripeCardError) {
      throw new AppError("BAD_REQUEST", "planChangeDeclined", "PAYMENT_DECLINED");
    }
    logError("stripe subscription update failed", { err, subscriptionId: live.id, plan: to.id });
    throw new AppError("INTERNAL", "planChangeFailed", "PLAN_CHANGE_FAILED");
  }
  return { kind: "planChange", saleId: changeId, plan: to.id, interval };
}
