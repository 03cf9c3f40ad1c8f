import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as paidPlans from "@/app/api/app/paidPlans/route";
import * as checkout from "@/app/api/billing/checkout/route";
import * as webhook from "@/app/api/webhooks/stripe/route";
import { db } from "@/db/client";
import { checkoutSales } from "@/db/schema";
import { messages } from "@/lib/messages";
import { PaidPlansAnswer } from "@/lib/plans/schemas";
import { createBuilder } from "../support/factories";
import { call } from "../support/http";

// Without STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET nothing pretends a payment happened:
// checkout and webhooks answer 503 naming the variables to set. lib/env reads the environment
// once, so it is cleared here, before any request.
for (const name of Object.keys(process.env)) if (name.startsWith("STRIPE_")) delete process.env[name];
process.env.STRIPE_PRICE_EXPLORER_MONTHLY = "price_explorer_monthly";

describe("payments without Stripe configured", () => {
  it("checkout answers 503 with the variables to set, and records no sale", async () => {
    const { user, token } = await createBuilder();
    const res = await call(checkout.POST, {
      path: "/api/billing/checkout",
      token,
      body: { planId: "explorer", interval: "monthly" },
    });
    expect(res.status).toBe(503);
    expect(res.json.error).toEqual({ code: "NOT_CONFIGURED", message: messages.paymentsNotConfigured });
    expect(messages.paymentsNotConfigured).toContain("STRIPE_SECRET_KEY");
    expect(await db().select().from(checkoutSales).where(eq(checkoutSales.userId, user.id))).toEqual([]);
  });

  it("paidPlans says on every paid card, before any click, what checkout would answer", async () => {
    const { token } = await createBuilder();
    const res = await call(paidPlans.GET, { method: "GET", path: "/api/app/paidPlans", token });
    expect(res.status).toBe(200);
    const { plans, paymentsConfigured } = PaidPlansAnswer.parse(res.json);
    // The upgrade dialog reads this to say an administrator changes plans instead.
    expect(paymentsConfigured).toBe(false);
    const refused = await call(checkout.POST, {
      path: "/api/billing/checkout",
      token,
      body: { planId: "moon", interval: "yearly" },
    });
    for (const card of plans.filter((p) => p.id !== "lite")) {
      for (const interval of ["monthly", "yearly"] as const) {
        expect(card.checkout[interval]).toEqual({
          available: false,
          code: "NOT_CONFIGURED",
          message: messages.paymentsNotConfigured,
        });
      }
    }
    // One source of truth: the card carries exactly the refusal checkout answers.
    expect(plans.find((p) => p.id === "moon")!.checkout.yearly).toEqual({
      available: false,
      ...(refused.json.error as object),
    });
  });

  it("checks the request before the configuration: a free plan is still a 400", async () => {
    const { token } = await createBuilder();
    const res = await call(checkout.POST, {
      path: "/api/billing/checkout",
      token,
      body: { planId: "lite", interval: "monthly" },
    });
    expect(res.status).toBe(400);
  });

  it("webhooks answer 503 when signed, and 400 when not signed at all", async () => {
    const signed = await call(webhook.POST, {
      path: "/api/webhooks/stripe",
      rawBody: JSON.stringify({ id: "evt_1", type: "checkout.session.completed" }),
      headers: { "stripe-signature": "t=1,v1=00" },
    });
    expect(signed.status).toBe(503);
    expect(signed.json.error).toEqual({ code: "NOT_CONFIGURED", message: messages.paymentsNotConfigured });
    const unsigned = await call(webhook.POST, { path: "/api/webhooks/stripe", rawBody: "{}" });
    expect(unsigned.status).toBe(400);
  });
});
