import { describe, expect, it } from "vitest";
import { listPlanCards } from "@/lib/billing/plan-cards";
import { messages } from "@/lib/messages";
import {
  bestYearlySavings,
  currentPlanId,
  defaultInterval,
  planButton,
  planCardState,
  priceDisplay,
  purchaseInterval,
  sharedUnavailableReason,
  showsSaveBadge,
  yearlyMonthlyEquivalent,
  yearlySavingsPercent,
} from "@/lib/plans/pricing";
import type { PlanCard } from "@/lib/plans/schemas";

const card = (over: Partial<PlanCard>): PlanCard => ({
  id: "explorer",
  name: "Explorer",
  price: 20,
  priceYearly: 192,
  discountedPrice: null,
  oneTimePayment: null,
  description: "",
  isMostPopular: false,
  buttonText: "Upgrade to Explorer",
  link: "/joinplan?plan=explorer",
  features: [],
  checkout: { monthly: { available: true }, yearly: { available: true } },
  ...over,
});

/** The cards as a deployment with Stripe and every price configured lists them. */
const cards = () =>
  listPlanCards({ payments: { configured: true, prices: { STRIPE_PRICE_EXPLORER_MONTHLY: "price_x" } } });

describe("price arithmetic", () => {
  it.each([
    [192, 16],
    [480, 40],
    [2880, 240],
    [100, 100 / 12],
  ])("yearly %d is %d a month", (yearly, monthly) => {
    expect(yearlyMonthlyEquivalent(yearly)).toBeCloseTo(monthly, 10);
  });

  it.each([
    { price: 20, priceYearly: 192, percent: 20 },
    { price: 19, priceYearly: 190, percent: 17 }, // 16.67 rounds up
    { price: 10, priceYearly: 108, percent: 10 },
    { price: 10, priceYearly: 109, percent: 9 }, // 9.17 rounds down
    { price: 10, priceYearly: 120, percent: 0 },
    { price: 10, priceYearly: 130, percent: -8 },
    { price: 0, priceYearly: 0, percent: null },
    { price: 20, priceYearly: null, percent: null },
  ])("savings of $priceYearly a year against $price a month: $percent", ({ price, priceYearly, percent }) => {
    expect(yearlySavingsPercent({ price, priceYearly })).toBe(percent);
  });

  it.each([
    [null, false],
    [9, false],
    [10, true],
    [45, true],
  ] as const)("save badge at %j: %j", (percent, shown) => {
    expect(showsSaveBadge(percent)).toBe(shown);
  });

  it("the toggle shows the best badge-worthy saving", () => {
    expect(
      bestYearlySavings([card({ price: 0, priceYearly: null }), card({}), card({ priceYearly: 180 })]),
    ).toBe(25);
    expect(bestYearlySavings([card({ priceYearly: 230 })])).toBeNull();
    expect(bestYearlySavings([card({ priceYearly: null })])).toBeNull();
  });

  it("every paid plan of the catalogue earns the yearly badge", () => {
    for (const plan of cards().plans.filter((p) => p.priceYearly !== null)) {
      expect(showsSaveBadge(yearlySavingsPercent(plan)), plan.id).toBe(true);
    }
  });
});

describe("defaultInterval", () => {
  it("is yearly when any card has a yearly price", () => {
    expect(defaultInterval([card({ price: 0, priceYearly: null }), card({})])).toBe("yearly");
    expect(defaultInterval(cards().plans)).toBe("yearly");
  });
  it("is monthly otherwise", () => {
    expect(defaultInterval([card({ priceYearly: null })])).toBe("monthly");
    expect(defaultInterval([card({ priceYearly: 0 })])).toBe("monthly");
    expect(defaultInterval([card({ oneTimePayment: 299 })])).toBe("monthly");
    expect(defaultInterval([])).toBe("monthly");
  });
});

describe("priceDisplay", () => {
  it("yearly: priceYearly / 12 per month, the total below, and the badge", () => {
    expect(priceDisplay(card({}), "yearly")).toEqual({
      amount: "$16.00",
      suffix: messages.planPerMonth,
      regular: null,
      note: "$192.00 billed yearly",
      saveBadge: "Save 20%",
    });
  });

  it("yearly under 10 % savings: no badge; uneven months keep two decimals", () => {
    const shown = priceDisplay(card({ price: 10, priceYearly: 110 }), "yearly");
    expect(shown.amount).toBe("$9.17");
    expect(shown.saveBadge).toBeNull();
  });

  it("monthly: the monthly price", () => {
    expect(priceDisplay(card({}), "monthly")).toEqual({
      amount: "$20.00",
      suffix: messages.planPerMonth,
      regular: null,
      note: messages.planBilledMonthly,
      saveBadge: null,
    });
  });

  it("yearly chosen but the plan has no yearly price: monthly", () => {
    expect(priceDisplay(card({ priceYearly: null }), "yearly").note).toBe(messages.planBilledMonthly);
  });

  it("a discounted price shows with the regular one struck through", () => {
    const shown = priceDisplay(card({ discountedPrice: 15 }), "monthly");
    expect(shown.amount).toBe("$15.00");
    expect(shown.regular).toBe("$20.00");
  });

  it("a one-time payment ignores the interval", () => {
    for (const interval of ["monthly", "yearly"] as const) {
      expect(priceDisplay(card({ oneTimePayment: 499 }), interval)).toMatchObject({
        amount: "$499.00",
        suffix: null,
        note: messages.planOneTimePayment,
      });
    }
  });

  it("the free plan reads Free", () => {
    expect(priceDisplay(card({ id: "lite", price: 0, priceYearly: null }), "yearly")).toMatchObject({
      amount: messages.planFree,
      suffix: null,
      note: messages.planFreeForever,
    });
  });
});

describe("card states", () => {
  const { plans } = cards();
  const states = (accountPlan: string | null) => {
    const current = currentPlanId(plans, accountPlan);
    return Object.fromEntries(plans.map((p) => [p.id, planCardState(p, current)]));
  };

  it("on lite: lite selected, every paid plan an upgrade", () => {
    expect(states("lite")).toEqual({
      lite: "selected",
      explorer: "upgrade",
      monetizer: "upgrade",
      moon: "upgrade",
      agency: "upgrade",
    });
  });

  it("on monetizer: lite disabled, lower paid plans downgrades, higher upgrades", () => {
    expect(states("monetizer")).toEqual({
      lite: "disabled",
      explorer: "downgrade",
      monetizer: "selected",
      moon: "upgrade",
      agency: "upgrade",
    });
  });

  it("on the top plan every other paid plan is a downgrade", () => {
    expect(states("agency")).toMatchObject({ lite: "disabled", moon: "downgrade", agency: "selected" });
  });

  it("an account plan matching no card: the free card is the current one", () => {
    expect(currentPlanId(plans, "legacy-gold")).toBe("lite");
    expect(states("legacy-gold").lite).toBe("selected");
  });

  it("no account: no states", () => {
    expect(currentPlanId(plans, null)).toBeNull();
    expect(new Set(Object.values(states(null)))).toEqual(new Set(["none"]));
  });

  it("buttons follow the state", () => {
    const explorer = plans.find((p) => p.id === "explorer")!;
    const lite = plans.find((p) => p.id === "lite")!;
    const unavailable = null;
    expect(planButton(explorer, "selected")).toEqual({
      label: messages.planCurrent,
      enabled: false,
      unavailable,
    });
    expect(planButton(explorer, "upgrade")).toEqual({
      label: explorer.buttonText,
      enabled: true,
      unavailable,
    });
    expect(planButton(explorer, "downgrade")).toEqual({
      label: "Switch to Explorer",
      enabled: true,
      unavailable,
    });
    expect(planButton(explorer, "none")).toEqual({ label: explorer.buttonText, enabled: true, unavailable });
    expect(planButton(lite, "disabled")).toEqual({
      label: messages.planIncluded,
      enabled: false,
      unavailable,
    });
    expect(planButton(lite, "none").enabled).toBe(false);
  });

  it("a button whose checkout is not available is disabled and says why", () => {
    const explorer = plans.find((p) => p.id === "explorer")!;
    const lite = plans.find((p) => p.id === "lite")!;
    const why = {
      available: false as const,
      code: "NOT_CONFIGURED",
      message: messages.paymentsNotConfigured,
    };
    for (const state of ["upgrade", "downgrade", "none"] as const) {
      expect(planButton(explorer, state, why)).toMatchObject({
        enabled: false,
        unavailable: messages.paymentsNotConfigured,
      });
    }
    // A button that could not be pressed anyway says nothing more.
    expect(planButton(explorer, "selected", why)).toMatchObject({ enabled: false, unavailable: null });
    expect(planButton(lite, "disabled", why)).toMatchObject({ enabled: false, unavailable: null });
  });

  it("a card is bought in the chosen interval, or monthly when it has no yearly price", () => {
    expect(purchaseInterval(card({}), "yearly")).toBe("yearly");
    expect(purchaseInterval(card({}), "monthly")).toBe("monthly");
    expect(purchaseInterval(card({ priceYearly: null }), "yearly")).toBe("monthly");
    expect(purchaseInterval(card({ oneTimePayment: 500 }), "yearly")).toBe("monthly");
  });
});

describe("sharedUnavailableReason: one banner instead of the same warning under every card", () => {
  const unconfigured = () => listPlanCards({ payments: { configured: false, prices: {} } }).plans;

  it("payments not configured: said once, for every interval and account", () => {
    const plans = unconfigured();
    for (const interval of ["monthly", "yearly"] as const) {
      expect(sharedUnavailableReason(plans, currentPlanId(plans, "lite"), interval)).toBe(
        messages.paymentsNotConfigured,
      );
      expect(sharedUnavailableReason(plans, currentPlanId(plans, null), interval)).toBe(
        messages.paymentsNotConfigured,
      );
    }
  });

  it("nothing to say when checkout works", () => {
    const plans = listPlanCards({
      payments: { configured: true, prices: { STRIPE_PRICE_EXPLORER_MONTHLY: "price_x" } },
    }).plans.map((p) => ({
      ...p,
      checkout: { monthly: { available: true as const }, yearly: { available: true as const } },
    }));
    expect(sharedUnavailableReason(plans, "lite", "monthly")).toBeNull();
  });

  it("a single card blocked, or cards blocked for different reasons, keep their own line", () => {
    const plans = unconfigured();
    const explorer = plans.find((p) => p.id === "explorer")!;
    expect(sharedUnavailableReason([explorer], "lite", "monthly")).toBeNull();
    const priceMissing = (id: string, variable: string) => ({
      ...plans.find((p) => p.id === id)!,
      checkout: {
        monthly: { available: false as const, code: "PRICE_NOT_CONFIGURED", message: `set ${variable}` },
        yearly: { available: false as const, code: "PRICE_NOT_CONFIGURED", message: `set ${variable}` },
      },
    });
    expect(
      sharedUnavailableReason([priceMissing("explorer", "A"), priceMissing("moon", "B")], "lite", "monthly"),
    ).toBeNull();
  });

  it("the current plan's card and the free card say nothing, so they do not split the banner", () => {
    const plans = unconfigured();
    // On explorer: explorer's card is the current one and lite is included; the rest agree.
    expect(sharedUnavailableReason(plans, "explorer", "monthly")).toBe(messages.paymentsNotConfigured);
  });
});
