import { describe, expect, it } from "vitest";
import {
  changesRunningSubscription,
  checkoutAvailability,
  checkoutBlocker,
  type PaymentConfig,
} from "@/lib/billing/availability";
import { listPlanCards } from "@/lib/billing/plan-cards";
import { planChangeQuestion } from "@/lib/billing/plan-change";
import { messages } from "@/lib/messages";
import { findPlan, PLAN_CATALOGUE } from "@/lib/plans/catalogue";
import { PaidPlansAnswer } from "@/lib/plans/schemas";
import { stripePriceEnvNames } from "@/lib/plans/stripe-prices";
import { fillTemplate } from "@/lib/text";

// The one rule deciding whether a plan can be bought, as checkout applies it and as the cards
// show it. The configuration is passed in: these tests read no environment.
const everyPrice = Object.fromEntries(stripePriceEnvNames().map((name) => [name, `price_${name}`]));
const configured: PaymentConfig = { configured: true, prices: everyPrice };
const notConfigured: PaymentConfig = { configured: false, prices: everyPrice };

describe("checkoutBlocker", () => {
  it("lets every paid plan and interval through when Stripe and its prices are configured", () => {
    for (const plan of PLAN_CATALOGUE.filter((p) => p.price > 0)) {
      expect(checkoutBlocker(plan.id, "monthly", configured)).toBeNull();
      expect(checkoutBlocker(plan.id, "yearly", configured)).toBeNull();
    }
  });

  it("says payments are not configured, naming the variables, when Stripe is not set up", () => {
    const err = checkoutBlocker("explorer", "monthly", notConfigured)!;
    expect(err).toMatchObject({
      status: 503,
      code: "NOT_CONFIGURED",
      message: messages.paymentsNotConfigured,
    });
    expect(err.message).toContain("STRIPE_SECRET_KEY");
    expect(err.message).toContain("STRIPE_WEBHOOK_SECRET");
  });

  it("names the one price variable that is missing", () => {
    const { STRIPE_PRICE_MOON_YEARLY: _unset, ...prices } = everyPrice;
    const payments = { configured: true, prices };
    expect(checkoutBlocker("moon", "monthly", payments)).toBeNull();
    expect(checkoutBlocker("moon", "yearly", payments)).toMatchObject({
      status: 503,
      code: "PRICE_NOT_CONFIGURED",
      message: fillTemplate(messages.planPriceNotConfigured, {
        plan: "Moon",
        interval: "yearly",
        variable: "STRIPE_PRICE_MOON_YEARLY",
      }),
    });
  });

  it("refuses what no configuration could sell, before looking at the configuration", () => {
    expect(checkoutBlocker("lite", "monthly", notConfigured)).toMatchObject({
      status: 400,
      code: "FREE_PLAN",
    });
    expect(checkoutBlocker("platinum", "monthly", notConfigured)).toMatchObject({
      status: 400,
      code: "UNKNOWN_PLAN",
    });
  });
});

describe("plan cards say whether checkout is available", () => {
  it("every card is available in both intervals when everything is configured", () => {
    const { plans } = PaidPlansAnswer.parse(listPlanCards({ payments: configured }));
    for (const card of plans.filter((p) => p.id !== "lite")) {
      expect(card.checkout).toEqual({ monthly: { available: true }, yearly: { available: true } });
    }
  });

  it("without Stripe each paid card carries the message checkout would answer", () => {
    const { plans } = listPlanCards({ payments: notConfigured });
    for (const card of plans.filter((p) => p.id !== "lite")) {
      for (const interval of ["monthly", "yearly"] as const) {
        expect(card.checkout[interval]).toEqual({
          available: false,
          code: "NOT_CONFIGURED",
          message: messages.paymentsNotConfigured,
        });
        expect(card.checkout[interval]).toEqual(checkoutAvailability(card.id, interval, notConfigured));
      }
    }
    expect(plans[0]!.checkout.monthly).toMatchObject({ available: false, code: "FREE_PLAN" });
  });
});

describe("the question before a running subscription is switched", () => {
  it("an upgrade in the same billing period is prorated onto the next invoice", () => {
    const q = planChangeQuestion("explorer", findPlan("moon"), { interval: "monthly" }, "monthly");
    expect(q).toEqual({
      kind: "confirmChange",
      title: "Switch to Moon?",
      message: fillTemplate(messages.planChangeUpgradeProrated, { from: "Explorer", plan: "Moon" }),
      confirmLabel: "Switch to Moon",
    });
    expect(q.message).toContain("prorated");
  });

  it("a downgrade credits the unused part", () => {
    const q = planChangeQuestion("moon", findPlan("explorer"), { interval: "yearly" }, "yearly");
    expect(q.message).toBe(
      fillTemplate(messages.planChangeDowngradeProrated, { from: "Moon", plan: "Explorer" }),
    );
  });

  it("a new billing period says it is charged today, less a prorated credit", () => {
    const q = planChangeQuestion("explorer", findPlan("moon"), { interval: "monthly" }, "yearly");
    expect(q.message).toBe(
      fillTemplate(messages.planChangeNewPeriod, {
        from: "Explorer",
        fromInterval: "monthly",
        plan: "Moon",
        interval: "yearly",
      }),
    );
    expect(q.message).toContain("prorated credit");
  });
});

describe("a running subscription is changed, never doubled", () => {
  const running = (status: string | null, subscriptionId: string | null = "sub_1") => ({
    subscriptionId,
    planSubscriptionStatus: status,
  });

  it("a recurring plan changes a subscription that grants a plan (active, trialing, past_due)", () => {
    for (const status of ["active", "trialing", "past_due"]) {
      expect(changesRunningSubscription(findPlan("moon"), running(status))).toBe(true);
    }
  });

  it("no subscription, or one that has ended or never started, is a new checkout", () => {
    expect(changesRunningSubscription(findPlan("moon"), null)).toBe(false);
    expect(changesRunningSubscription(findPlan("moon"), running(null, null))).toBe(false);
    for (const status of ["canceled", "unpaid", "incomplete", "incomplete_expired", "paused"]) {
      expect(changesRunningSubscription(findPlan("moon"), running(status))).toBe(false);
    }
  });

  it("a one-time plan keeps Stripe Checkout even while a subscription runs", () => {
    const lifetime = { ...findPlan("agency"), oneTimePayment: 999 };
    expect(changesRunningSubscription(lifetime, running("active"))).toBe(false);
  });
});
