import { describe, expect, it } from "vitest";
import {
  accountFieldsOf,
  appendIds,
  detailsAreNewer,
  speaksForAccount,
  statusIsNewer,
} from "@/lib/billing/subscription-state";

const at = (s: number) => new Date(s * 1000);

describe("statusIsNewer", () => {
  it("takes the newer event, and anything when nothing is held", () => {
    expect(statusIsNewer({ status: null, statusEventAt: null }, "active", at(5))).toBe(true);
    expect(statusIsNewer({ status: "active", statusEventAt: at(10) }, "past_due", at(11))).toBe(true);
    expect(statusIsNewer({ status: "past_due", statusEventAt: at(10) }, "active", at(9))).toBe(false);
  });

  it("never leaves a terminal status, and always reaches one", () => {
    expect(statusIsNewer({ status: "canceled", statusEventAt: at(10) }, "active", at(20))).toBe(false);
    expect(statusIsNewer({ status: "active", statusEventAt: at(10) }, "canceled", at(5))).toBe(true);
  });

  it("within one second, never steps back to incomplete", () => {
    expect(statusIsNewer({ status: "active", statusEventAt: at(10) }, "incomplete", at(10))).toBe(false);
    expect(statusIsNewer({ status: "incomplete", statusEventAt: at(10) }, "active", at(10))).toBe(true);
    expect(statusIsNewer({ status: "active", statusEventAt: at(10) }, "past_due", at(10))).toBe(true);
  });
});

describe("the account a subscription speaks for", () => {
  it("keeps the plan while the status grants it, and falls back to lite otherwise", () => {
    const sub = { subscriptionId: "sub_1", plan: "moon", cancelledAt: null };
    expect(accountFieldsOf({ ...sub, status: "past_due" }).plan).toBe("moon");
    expect(accountFieldsOf({ ...sub, status: "canceled" }).plan).toBe("lite");
    expect(accountFieldsOf({ ...sub, plan: null, status: "active" })).not.toHaveProperty("plan");
  });

  it("follows its own subscription, takes up a live one, and is switched by a checkout", () => {
    const follows = { subscriptionId: "sub_a", planSubscriptionStatus: "active" };
    expect(speaksForAccount(follows, { subscriptionId: "sub_a", status: "canceled" }, false)).toBe(true);
    expect(speaksForAccount(follows, { subscriptionId: "sub_b", status: "active" }, false)).toBe(false);
    expect(speaksForAccount(follows, { subscriptionId: "sub_b", status: "active" }, true)).toBe(true);
    const ended = { subscriptionId: "sub_a", planSubscriptionStatus: "canceled" };
    expect(speaksForAccount(ended, { subscriptionId: "sub_b", status: "active" }, false)).toBe(true);
    expect(speaksForAccount(ended, { subscriptionId: "sub_b", status: "incomplete" }, false)).toBe(false);
  });

  it("compares plan details by time and appends payment ids once, in order", () => {
    expect(detailsAreNewer({ detailsEventAt: at(10) }, at(9))).toBe(false);
    expect(detailsAreNewer({ detailsEventAt: at(10) }, at(10))).toBe(true);
    expect(appendIds(["in_1"], "in_2", null, "in_1", "in_3")).toEqual(["in_1", "in_2", "in_3"]);
  });
});
