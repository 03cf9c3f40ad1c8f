import { describe, expect, it } from "vitest";
import { listPlanCards } from "@/lib/billing/plan-cards";
import { messages } from "@/lib/messages";
import { getPlanCapabilities } from "@/lib/plans/capabilities";
import { FREE_PLAN_ID, findPlan, PLAN_CATALOGUE } from "@/lib/plans/catalogue";
import { planFeatures } from "@/lib/plans/features";
import { CheckoutBody, PaidPlansAnswer, PaidPlansQuery } from "@/lib/plans/schemas";
import {
  planForStripePrice,
  stripePriceEnvName,
  stripePriceEnvNames,
  stripePriceId,
} from "@/lib/plans/stripe-prices";
import {
  isUpgradeReason,
  recommendedPlanFor,
  UPGRADE_REASONS,
  upgradeReasonMessage,
} from "@/lib/plans/upgrade-reasons";
import { fillTemplate } from "@/lib/text";

describe("catalogue", () => {
  it("starts with the free plan and exactly one most popular plan", () => {
    expect(PLAN_CATALOGUE[0]).toMatchObject({ id: FREE_PLAN_ID, price: 0 });
    expect(PLAN_CATALOGUE.filter((p) => p.isMostPopular)).toHaveLength(1);
  });

  it("an unknown id falls back to the free plan", () => {
    expect(findPlan("nope").id).toBe(FREE_PLAN_ID);
  });

  it("the paidPlans answer matches its schema, in tier order, with links for paid plans", () => {
    const answer = PaidPlansAnswer.parse(listPlanCards({ payments: { configured: false, prices: {} } }));
    expect(answer.plans.map((p) => p.id)).toEqual(["lite", "explorer", "monetizer", "moon", "agency"]);
    expect(answer.plans[0].link).toBeNull();
    expect(answer.plans[1].link).toBe("/joinplan?plan=explorer");
  });

  it("card features come from the capabilities", () => {
    expect(planFeatures("lite")).toEqual([
      messages.planFeatureDataItemsOne,
      "Uploads up to 10 MB",
      messages.planFeatureLiveToolsOne,
      "Up to 3 tools per app",
      "Web scraper: 20 pages, 2 levels deep",
      "AI requests: 5 a minute, 100 a day",
    ]);
    const moon = planFeatures("moon");
    expect(moon).toContain("500 data items");
    expect(moon).toContain("Uploads up to 20 MB");
    expect(moon).toContain(messages.planFeatureAppSettings);
    expect(planFeatures("explorer")).not.toContain(messages.planFeatureAppSettings);
    expect(planFeatures("agency")).toContain("2,000 data items");
    expect(planFeatures("agency")).toContain("AI requests: 120 a minute, 20,000 a day");
  });

  it("validates the paidPlans query and the checkout body", () => {
    expect(PaidPlansQuery.parse({})).toEqual({});
    expect(() => PaidPlansQuery.parse({ appId: "not-a-uuid" })).toThrow();
    expect(CheckoutBody.parse({ planId: "moon", interval: "yearly" })).toEqual({
      planId: "moon",
      interval: "yearly",
    });
    expect(
      CheckoutBody.parse({ planId: "moon", interval: "yearly", confirmChange: true }).confirmChange,
    ).toBe(true);
    expect(() => CheckoutBody.parse({ planId: "gold", interval: "yearly" })).toThrow();
    expect(() => CheckoutBody.parse({ planId: "moon", interval: "weekly" })).toThrow();
  });
});

describe("Stripe price ids from the environment", () => {
  const env = { STRIPE_PRICE_MOON_YEARLY: " price_moon_y ", STRIPE_PRICE_EXPLORER_MONTHLY: "price_exp_m" };

  it("names one variable per paid plan and interval", () => {
    expect(stripePriceEnvName("explorer", "monthly")).toBe("STRIPE_PRICE_EXPLORER_MONTHLY");
    expect(stripePriceEnvNames()).toEqual([
      "STRIPE_PRICE_EXPLORER_MONTHLY",
      "STRIPE_PRICE_EXPLORER_YEARLY",
      "STRIPE_PRICE_MONETIZER_MONTHLY",
      "STRIPE_PRICE_MONETIZER_YEARLY",
      "STRIPE_PRICE_MOON_MONTHLY",
      "STRIPE_PRICE_MOON_YEARLY",
      "STRIPE_PRICE_AGENCY_MONTHLY",
      "STRIPE_PRICE_AGENCY_YEARLY",
    ]);
  });

  it("reads a price id, trimmed, or null when unset", () => {
    expect(stripePriceId("moon", "yearly", env)).toBe("price_moon_y");
    expect(stripePriceId("moon", "monthly", env)).toBeNull();
  });

  it("maps a price id back to its plan and interval", () => {
    expect(planForStripePrice("price_exp_m", env)).toEqual({ planId: "explorer", interval: "monthly" });
    expect(planForStripePrice("price_unknown", env)).toBeNull();
  });
});

describe("upgrade reasons", () => {
  it("every reason has a catalogue message", () => {
    for (const reason of UPGRADE_REASONS) expect(messages[upgradeReasonMessage(reason)]).toBeTruthy();
    expect(upgradeReasonMessage("toolSettings")).toBe("upgradeToEditToolSettings");
  });

  it("recommends the lowest plan that lifts the limit", () => {
    expect(recommendedPlanFor("dataItems", "lite")).toBe("explorer");
    expect(recommendedPlanFor("generatedAppSettings", "lite")).toBe("moon");
    expect(recommendedPlanFor("generatedAppSettings", "monetizer")).toBe("moon");
    expect(recommendedPlanFor("webScraperPages", "explorer")).toBe("monetizer");
    expect(recommendedPlanFor("uploadSize", "explorer")).toBeNull();
    expect(recommendedPlanFor("dataItems", "agency")).toBeNull();
    // The recommendation really is better at that capability.
    expect(getPlanCapabilities("explorer").maxDataItems).toBeGreaterThan(
      getPlanCapabilities("lite").maxDataItems,
    );
  });

  it("recognises reason names", () => {
    expect(isUpgradeReason("dataItems")).toBe(true);
    expect(isUpgradeReason("toString")).toBe(false);
  });
});

describe("fillTemplate", () => {
  it("fills known placeholders and leaves others", () => {
    expect(fillTemplate("Save {percent}% {x}", { percent: 20 })).toBe("Save 20% {x}");
  });
});
