import { describe, expect, it } from "vitest";
import {
  BASE_UPLOAD_BYTES,
  getPlanCapabilities,
  isBuilderAccountView,
  isPaidPlan,
  type PlanCapabilities,
  planRank,
} from "@/lib/plans/capabilities";
import { PLAN_CATALOGUE, PLAN_IDS } from "@/lib/plans/catalogue";

const MB = 1024 * 1024;

// One row per capability, one column per plan: lite, explorer, monetizer, moon, agency.
const table: Record<keyof PlanCapabilities, [unknown, unknown, unknown, unknown, unknown]> = {
  maxDataItems: [1, 25, 100, 500, 2000],
  maxUploadBytes: [10 * MB, 20 * MB, 20 * MB, 20 * MB, 20 * MB],
  maxConnectorFiles: [1, 5, 5, 5, 5],
  webScraperMaxDepth: [2, 3, 3, 3, 3],
  webScraperMaxPages: [20, 50, 100, 100, 100],
  photoFields: [false, true, true, true, true],
  editToolSettings: [false, true, true, true, true],
  hideWatermarkByDefault: [false, true, true, true, true],
  generatedAppSettings: [false, false, false, true, true],
  maxLiveActiveTools: [1, 5, 20, 50, 200],
  maxToolsPerApp: [3, 10, 20, 30, 50],
  maxCustomFields: [5, 15, 25, 40, 60],
  monthlyProcessingBytes: [25 * MB, 250 * MB, 1024 * MB, 5 * 1024 * MB, 20 * 1024 * MB],
  modelCallsPerMinute: [5, 15, 30, 60, 120],
  modelCallsPerDay: [100, 500, 2000, 5000, 20000],
};

const plans = ["lite", "explorer", "monetizer", "moon", "agency"] as const;

describe("getPlanCapabilities", () => {
  it("the table covers every plan of the catalogue, in order", () => {
    expect([...PLAN_IDS]).toEqual([...plans]);
  });

  const rows = Object.entries(table).flatMap(([capability, values]) =>
    plans.map((plan, i) => ({ plan, capability: capability as keyof PlanCapabilities, expected: values[i] })),
  );
  it.each(rows)("$plan: $capability = $expected", ({ plan, capability, expected }) => {
    expect(getPlanCapabilities(plan)[capability]).toEqual(expected);
  });

  it("has no capability the table does not check", () => {
    for (const plan of plans) {
      expect(Object.keys(getPlanCapabilities(plan)).sort()).toEqual(Object.keys(table).sort());
    }
  });

  it("paid uploads are exactly twice the base size", () => {
    expect(getPlanCapabilities("lite").maxUploadBytes).toBe(BASE_UPLOAD_BYTES);
    for (const plan of plans.filter(isPaidPlan)) {
      expect(getPlanCapabilities(plan).maxUploadBytes).toBe(2 * BASE_UPLOAD_BYTES);
    }
  });

  it.each(["", "free", "LITE", "enterprise", "moon "])(
    "an unknown plan %j gets lite's capabilities",
    (plan) => {
      expect(getPlanCapabilities(plan)).toEqual(getPlanCapabilities("lite"));
    },
  );

  it("no limit goes down as the tier goes up", () => {
    for (let i = 1; i < plans.length; i++) {
      const lower = getPlanCapabilities(plans[i - 1]);
      const higher = getPlanCapabilities(plans[i]);
      for (const key of Object.keys(table) as (keyof PlanCapabilities)[]) {
        expect(Number(higher[key]), `${plans[i]}.${key}`).toBeGreaterThanOrEqual(Number(lower[key]));
      }
    }
  });
});

describe("planRank and isPaidPlan", () => {
  it.each(plans.map((plan, rank) => ({ plan, rank })))("$plan ranks $rank", ({ plan, rank }) => {
    expect(planRank(plan)).toBe(rank);
    expect(isPaidPlan(plan)).toBe(rank > 0);
  });

  it("an unknown plan ranks as lite and is not paid", () => {
    expect(planRank("platinum")).toBe(0);
    expect(isPaidPlan("platinum")).toBe(false);
  });

  it("ranks in the catalogue are unique", () => {
    expect(new Set(PLAN_CATALOGUE.map((p) => p.rank)).size).toBe(PLAN_CATALOGUE.length);
  });
});

describe("isBuilderAccountView", () => {
  const cases = [
    { accountType: "builder", hasBusinessInfo: false, plan: "lite", expected: false },
    { accountType: "builder", hasBusinessInfo: true, plan: "lite", expected: true },
    { accountType: "builder", hasBusinessInfo: false, plan: "explorer", expected: true },
    { accountType: "builder", hasBusinessInfo: false, plan: "moon", expected: true },
    { accountType: "builder", hasBusinessInfo: true, plan: "agency", expected: true },
    { accountType: "other", hasBusinessInfo: true, plan: "moon", expected: false },
    { accountType: "other", hasBusinessInfo: false, plan: "lite", expected: false },
    // An unknown plan counts as lite.
    { accountType: "builder", hasBusinessInfo: false, plan: "retired-plan", expected: false },
  ];
  it.each(cases)(
    "$accountType, business info $hasBusinessInfo, $plan → $expected",
    ({ expected, ...account }) => {
      expect(isBuilderAccountView(account)).toBe(expected);
    },
  );
});
