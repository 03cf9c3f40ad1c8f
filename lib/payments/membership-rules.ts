import type { GumroadSale } from "./gumroad";

// What counts as a membership, from the sales Gumroad lists for a product and an address. Pure,
// so the unit tests cover every case without a server.

export type PurchaseVerdict =
  | { kind: "active"; sale: GumroadSale }
  /** A purchase of the product by this address whose subscription no longer gives access. */
  | { kind: "ended" }
  | { kind: "none" };

const same = (a: string | null | undefined, b: string) =>
  typeof a === "string" && a.trim().toLowerCase() === b.trim().toLowerCase();

/** The buyer paid and kept the money paid: not refunded, not charged back, not lost in a dispute. */
function paidFor(sale: GumroadSale): boolean {
  if (sale.refunded === true || sale.chargedback === true) return false;
  if (sale.disputed === true && sale.dispute_won !== true) return false;
  if (sale.preorder_cancelled === true) return false;
  // The gifter's purchase belongs to the person it was given to (their own sale has their address).
  return sale.is_gift_sender_purchase !== true;
}

/**
 * Whether a sale's subscription still gives access. Gumroad's `dead` is "not alive": ended,
 * failed, or cancelled and past the period already paid; a subscription cancelled but paid up to
 * the end of its period is still alive, as Gumroad counts it. Without `dead`, a cancelled or
 * ended subscription is taken as over.
 */
function subscriptionAlive(sale: GumroadSale): boolean {
  if (!sale.subscription_id) return true;
  if (sale.ended === true || sale.dead === true) return false;
  if (sale.dead === false) return true;
  return sale.cancelled !== true;
}

/**
 * The verdict on an address's purchases of a product: active when one sale of that product to
 * that address was paid for and, for a membership product, its subscription is alive.
 */
export function judgePurchase(
  sales: readonly GumroadSale[],
  productId: string,
  email: string,
): PurchaseVerdict {
  const theirs = sales.filter(
    (s) =>
      s.product_id === productId && (same(s.email, email) || same(s.purchase_email, email)) && paidFor(s),
  );
  const alive = theirs.find(subscriptionAlive);
  if (alive) return { kind: "active", sale: alive };
  return theirs.length > 0 ? { kind: "ended" } : { kind: "none" };
}
