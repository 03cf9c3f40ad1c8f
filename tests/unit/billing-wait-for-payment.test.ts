import { describe, expect, it } from "vitest";
import {
  type AccountSnapshot,
  type SaleSnapshot,
  waitForPayment,
} from "@/components/billing/wait-for-payment";
import { PAYMENT_REFETCH_INTERVAL_MS, PAYMENT_REFETCH_TRIES } from "@/lib/constants";

const lite: AccountSnapshot = { plan: "lite", subscriptionId: null, planSubscriptionStatus: null };
const explorer: AccountSnapshot = {
  plan: "explorer",
  subscriptionId: "sub_1",
  planSubscriptionStatus: "active",
};

/** Answers in turn (the last one repeats), and counts the refetches and the waits between them. */
function scripted(accounts: (AccountSnapshot | null)[], sales: (SaleSnapshot | null | Error)[]) {
  const calls = { account: 0, sale: 0, sleeps: [] as number[] };
  const at = <T>(list: T[], i: number) => list[Math.min(i, list.length - 1)]!;
  return {
    calls,
    deps: {
      fetchAccount: async () => at(accounts, calls.account++),
      fetchSale: async () => {
        const s = at(sales, calls.sale++);
        if (s instanceof Error) throw s;
        return s;
      },
      sleep: async (ms: number) => {
        calls.sleeps.push(ms);
      },
    },
  };
}

describe("waitForPayment (the account refetch after payment)", () => {
  it("stops as soon as the sale is paid and hands back the refetched account", async () => {
    const { deps, calls } = scripted(
      [lite, lite, explorer],
      [
        { status: "pending", plan: "explorer" },
        { status: "pending", plan: "explorer" },
        { status: "paid", plan: "explorer" },
      ],
    );
    expect(await waitForPayment(deps)).toEqual({ kind: "paid", account: explorer });
    expect(calls.account).toBe(3);
    expect(calls.sleeps).toEqual([PAYMENT_REFETCH_INTERVAL_MS, PAYMENT_REFETCH_INTERVAL_MS]);
  });

  it("polls every 4000 ms up to 15 tries, then says the payment is still processing", async () => {
    const { deps, calls } = scripted([lite], [{ status: "pending", plan: "explorer" }]);
    expect(await waitForPayment(deps)).toEqual({ kind: "pending" });
    expect(PAYMENT_REFETCH_INTERVAL_MS).toBe(4000);
    expect(PAYMENT_REFETCH_TRIES).toBe(15);
    expect(calls.account).toBe(15);
    expect(calls.sleeps).toHaveLength(14);
  });

  it("without an answer about the sale, a change of plan ends the wait", async () => {
    const { deps } = scripted([lite, lite, explorer], [new Error("404")]);
    expect(await waitForPayment(deps)).toEqual({ kind: "paid", account: explorer });
  });

  it("stops on an expired or failed sale", async () => {
    const { deps, calls } = scripted([lite], [{ status: "expired", plan: "explorer" }]);
    expect(await waitForPayment(deps)).toEqual({ kind: "failed" });
    expect(calls.account).toBe(1);
  });

  it("keeps trying through failed refetches, and stops when the page is gone", async () => {
    let gone = false;
    const { deps, calls } = scripted([null], [null]);
    const sleep = async (ms: number) => {
      await deps.sleep(ms);
      if (calls.sleeps.length === 3) gone = true;
    };
    expect(await waitForPayment({ ...deps, sleep, stopped: () => gone })).toEqual({ kind: "stopped" });
    expect(calls.account).toBe(3);
  });
});
