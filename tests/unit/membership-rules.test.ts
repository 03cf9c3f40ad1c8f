import { describe, expect, it } from "vitest";
import type { GumroadSale } from "@/lib/payments/gumroad";
import { judgePurchase } from "@/lib/payments/membership-rules";

// What counts as a membership among the sales Gumroad lists (lib/payments/membership-rules.ts).

const PRODUCT = "qQn8x6VYtLcMH2uLJ5Tf9A==";
const EMAIL = "buyer@example.com";

const sale = (more: Partial<GumroadSale> = {}): GumroadSale => ({
  id: "sale-1",
  email: EMAIL,
  purchase_email: EMAIL,
  product_id: PRODUCT,
  refunded: false,
  chargedback: false,
  disputed: false,
  dispute_won: false,
  ...more,
});
const subscription = (more: Partial<GumroadSale> = {}) =>
  sale({ subscription_id: "sub-1", cancelled: false, dead: false, ended: false, ...more });

describe("judgePurchase", () => {
  it("a paid one-time purchase or a live subscription of the product by the address is a membership", () => {
    expect(judgePurchase([sale()], PRODUCT, EMAIL).kind).toBe("active");
    expect(judgePurchase([subscription()], PRODUCT, EMAIL).kind).toBe("active");
    // Addresses compare without case or surrounding spaces.
    expect(judgePurchase([sale({ email: " Buyer@Example.COM" })], PRODUCT, "buyer@example.com").kind).toBe(
      "active",
    );
    // The purchase's own address counts too (the account's address may differ).
    expect(judgePurchase([sale({ email: "other@example.com" })], PRODUCT, EMAIL).kind).toBe("active");
  });

  it("nothing of this product by this address: none", () => {
    expect(judgePurchase([], PRODUCT, EMAIL).kind).toBe("none");
    expect(judgePurchase([sale({ product_id: "another" })], PRODUCT, EMAIL).kind).toBe("none");
    expect(
      judgePurchase([sale({ email: "x@example.com", purchase_email: "x@example.com" })], PRODUCT, EMAIL).kind,
    ).toBe("none");
  });

  it("money not kept does not count: refunded, charged back, a lost dispute, a cancelled pre-order", () => {
    expect(judgePurchase([sale({ refunded: true })], PRODUCT, EMAIL).kind).toBe("none");
    expect(judgePurchase([sale({ chargedback: true })], PRODUCT, EMAIL).kind).toBe("none");
    expect(judgePurchase([sale({ disputed: true })], PRODUCT, EMAIL).kind).toBe("none");
    expect(judgePurchase([sale({ disputed: true, dispute_won: true })], PRODUCT, EMAIL).kind).toBe("active");
    expect(judgePurchase([sale({ preorder_cancelled: true })], PRODUCT, EMAIL).kind).toBe("none");
    // A gift belongs to whoever received it.
    expect(judgePurchase([sale({ is_gift_sender_purchase: true })], PRODUCT, EMAIL).kind).toBe("none");
  });

  it("a subscription that no longer gives access has ended; one cancelled but paid up still counts", () => {
    expect(judgePurchase([subscription({ cancelled: true, dead: true })], PRODUCT, EMAIL).kind).toBe("ended");
    expect(judgePurchase([subscription({ ended: true, dead: true })], PRODUCT, EMAIL).kind).toBe("ended");
    expect(judgePurchase([subscription({ ended: true })], PRODUCT, EMAIL).kind).toBe("ended");
    expect(judgePurchase([subscription({ cancelled: true, dead: false })], PRODUCT, EMAIL).kind).toBe(
      "active",
    );
    // Without `dead`, a cancelled subscription is taken as over.
    expect(judgePurchase([subscription({ cancelled: true, dead: undefined })], PRODUCT, EMAIL).kind).toBe(
      "ended",
    );
  });

  it("any live purchase among old ones is enough, and it is the one kept", () => {
    const live = subscription({ id: "renewed", subscription_id: "sub-2" });
    const verdict = judgePurchase(
      [subscription({ dead: true, cancelled: true }), sale({ refunded: true, id: "r" }), live],
      PRODUCT,
      EMAIL,
    );
    expect(verdict).toEqual({ kind: "active", sale: live });
  });
});
