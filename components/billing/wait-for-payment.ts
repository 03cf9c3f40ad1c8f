import { PAYMENT_REFETCH_INTERVAL_MS, PAYMENT_REFETCH_TRIES } from "@/lib/constants";

// After Stripe sends a signed-in builder back with ?sale_id=, the plan changes only when the
// payment webhook has been applied. "The account is refetched after payment, polled every
// 4000 ms up to 15 tries": each try refetches the account, and asks where the sale
// stands, which says it first and also when the webhook beat the builder back.

export type AccountSnapshot = {
  plan: string;
  subscriptionId: string | null;
  planSubscriptionStatus: string | null;
};
export type SaleSnapshot = { status: "pending" | "paid" | "failed" | "expired"; plan: string };

export type PaymentOutcome =
  | { kind: "paid"; account: AccountSnapshot }
  | { kind: "failed" }
  | { kind: "pending" }
  | { kind: "stopped" };

export async function waitForPayment(deps: {
  fetchAccount: () => Promise<AccountSnapshot | null>;
  fetchSale: () => Promise<SaleSnapshot | null>;
  sleep: (ms: number) => Promise<void>;
  /** True once the page is gone: stop polling. */
  stopped?: () => boolean;
  tries?: number;
  intervalMs?: number;
}): Promise<PaymentOutcome> {
  const tries = deps.tries ?? PAYMENT_REFETCH_TRIES;
  const intervalMs = deps.intervalMs ?? PAYMENT_REFETCH_INTERVAL_MS;
  let first: AccountSnapshot | null = null;
  for (let attempt = 0; attempt < tries; attempt++) {
    if (attempt > 0) await deps.sleep(intervalMs);
    if (deps.stopped?.()) return { kind: "stopped" };
    const [account, sale] = await Promise.all([
      deps.fetchAccount().catch(() => null),
      deps.fetchSale().catch(() => null),
    ]);
    if (sale?.status === "failed" || sale?.status === "expired") return { kind: "failed" };
    if (!account) continue;
    if (sale?.status === "paid") return { kind: "paid", account };
    // Without an answer about the sale, a change of plan or subscription tells the same.
    if (first && changed(first, account)) return { kind: "paid", account };
    first ??= account;
  }
  return { kind: "pending" };
}

function changed(a: AccountSnapshot, b: AccountSnapshot): boolean {
  return a.plan !== b.plan || a.subscriptionId !== b.subscriptionId;
}
