import { PLAN_SAVE_BADGE_MIN_PERCENT } from "@/lib/constants";
import { formatDollars } from "@/lib/format/number";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { isPaidPlan, planRank } from "./capabilities";
import type { BillingInterval, CheckoutAvailability, PlanCard } from "./schemas";

// Price arithmetic and card states of the upgrade dialog. Pure: the
// dialog, the /joinplan page and the tests all call these.

type Priced = Pick<PlanCard, "price" | "priceYearly">;

/** "Yearly monthly-equivalent price is priceYearly divided by 12." */
export function yearlyMonthlyEquivalent(priceYearly: number): number {
  return priceYearly / 12;
}

/** round((1 - priceYearly / (12 * price)) * 100); null when there is nothing to compare. */
export function yearlySavingsPercent({ price, priceYearly }: Priced): number | null {
  if (priceYearly === null || price <= 0) return null;
  return Math.round((1 - priceYearly / (12 * price)) * 100);
}

/** "badge at 10 percent or more". */
export function showsSaveBadge(percent: number | null): percent is number {
  return percent !== null && percent >= PLAN_SAVE_BADGE_MIN_PERCENT;
}

export function hasYearlyPrice(card: Pick<PlanCard, "priceYearly" | "oneTimePayment">): boolean {
  return card.oneTimePayment === null && card.priceYearly !== null && card.priceYearly > 0;
}

/** The interval a card is bought in: the chosen one, or monthly for a card with no yearly price (or a one-time one). */
export function purchaseInterval(
  card: Pick<PlanCard, "priceYearly" | "oneTimePayment">,
  chosen: BillingInterval,
): BillingInterval {
  return hasYearlyPrice(card) ? chosen : "monthly";
}

/** "defaults to yearly when a yearly price exists". */
export function defaultInterval(cards: Pick<PlanCard, "priceYearly" | "oneTimePayment">[]): BillingInterval {
  return cards.some(hasYearlyPrice) ? "yearly" : "monthly";
}

/** The best badge-worthy yearly saving among the cards (for the toggle), or null. */
export function bestYearlySavings(cards: Priced[]): number | null {
  const best = Math.max(...cards.map((c) => yearlySavingsPercent(c) ?? Number.NEGATIVE_INFINITY));
  return showsSaveBadge(Number.isFinite(best) ? best : null) ? best : null;
}

export type PriceDisplay = {
  /** The big figure: "$16.00", or "Free". */
  amount: string;
  /** "/month" after the figure, or null (free, one-time). */
  suffix: string | null;
  /** The struck-through regular price under a discount, or null. */
  regular: string | null;
  /** The line below: "$192.00 billed yearly", "Billed monthly", "One-time payment", "Free forever". */
  note: string;
  /** "Save 20%" when the yearly saving earns a badge, else null. */
  saveBadge: string | null;
};

/** What a card shows for its price in the chosen billing interval. */
export function priceDisplay(card: PlanCard, interval: BillingInterval): PriceDisplay {
  if (card.oneTimePayment !== null) {
    return {
      amount: formatDollars(card.oneTimePayment),
      suffix: null,
      regular: null,
      note: messages.planOneTimePayment,
      saveBadge: null,
    };
  }
  if (card.price <= 0 && !hasYearlyPrice(card)) {
    return {
      amount: messages.planFree,
      suffix: null,
      regular: null,
      note: messages.planFreeForever,
      saveBadge: null,
    };
  }
  if (interval === "yearly" && hasYearlyPrice(card)) {
    const yearly = card.priceYearly!;
    const savings = yearlySavingsPercent(card);
    return {
      amount: formatDollars(yearlyMonthlyEquivalent(yearly)),
      suffix: messages.planPerMonth,
      regular: null,
      note: fillTemplate(messages.planBilledYearly, { total: formatDollars(yearly) }),
      saveBadge: showsSaveBadge(savings) ? fillTemplate(messages.planSaveBadge, { percent: savings }) : null,
    };
  }
  const discounted = card.discountedPrice !== null && card.discountedPrice < card.price;
  return {
    amount: formatDollars(discounted ? card.discountedPrice! : card.price),
    suffix: messages.planPerMonth,
    regular: discounted ? formatDollars(card.price) : null,
    note: messages.planBilledMonthly,
    saveBadge: null,
  };
}

export type PlanCardState = "selected" | "upgrade" | "downgrade" | "disabled" | "none";

/**
 * "The current plan is the plan matching the account plan, otherwise the free one."
 * Null when there is no account to compare with (the cards then show no state).
 */
export function currentPlanId(cards: Pick<PlanCard, "id">[], accountPlan: string | null | undefined) {
  if (accountPlan === null || accountPlan === undefined) return null;
  const match = cards.find((c) => c.id === accountPlan);
  if (match) return match.id;
  return cards.find((c) => !isPaidPlan(c.id))?.id ?? null;
}

/**
 * selected (the current plan), upgrade, downgrade, disabled (the free card while a paid plan
 * runs: leaving a paid plan is a cancellation, not a checkout) or none (no account to compare).
 */
export function planCardState(card: Pick<PlanCard, "id">, currentId: string | null): PlanCardState {
  if (currentId === null) return "none";
  if (card.id === currentId) return "selected";
  if (!isPaidPlan(card.id)) return "disabled";
  return planRank(card.id) > planRank(currentId) ? "upgrade" : "downgrade";
}

/**
 * The button of a card in that state. Upgrade and downgrade can be pressed, and so can a paid
 * card with no state; the free plan is never bought. A button that could be pressed but whose
 * checkout is not available (Stripe, or that plan's price, not configured) is disabled and
 * says why in `unavailable`, before anyone clicks.
 */
export function planButton(
  card: Pick<PlanCard, "id" | "name" | "buttonText">,
  state: PlanCardState,
  availability: CheckoutAvailability = { available: true },
): { label: string; enabled: boolean; unavailable: string | null } {
  const base = baseButton(card, state);
  if (!base.enabled || availability.available) return { ...base, unavailable: null };
  return { ...base, enabled: false, unavailable: availability.message };
}

/**
 * The one reason shown above the cards when several cards cannot be bought for the same reason
 * (payments not configured at all); null when the reasons differ (each card then names its own
 * missing price variable) or when at most one card is blocked.
 */
export function sharedUnavailableReason(
  cards: PlanCard[],
  currentId: string | null,
  interval: BillingInterval,
): string | null {
  const reasons = cards
    .map((card) =>
      planButton(card, planCardState(card, currentId), card.checkout[purchaseInterval(card, interval)]),
    )
    .map((button) => button.unavailable)
    .filter((reason): reason is string => reason !== null);
  return reasons.length > 1 && reasons.every((reason) => reason === reasons[0]) ? reasons[0]! : null;
}

function baseButton(
  card: Pick<PlanCard, "id" | "name" | "buttonText">,
  state: PlanCardState,
): { label: string; enabled: boolean } {
  switch (state) {
    case "selected":
      return { label: messages.planCurrent, enabled: false };
    case "disabled":
      return { label: messages.planIncluded, enabled: false };
    case "downgrade":
      return { label: fillTemplate(messages.planDowngrade, { name: card.name }), enabled: true };
    case "upgrade":
      return { label: card.buttonText, enabled: true };
    case "none":
      return { label: card.buttonText, enabled: isPaidPlan(card.id) };
  }
}
