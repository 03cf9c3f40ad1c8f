"use client";

import { useEffect, useState } from "react";
import { z } from "zod";
import { ApiError, apiFetch } from "@/components/auth/api-client";
import { messages } from "@/lib/messages";
import { PaidPlansAnswer, type PlanCard } from "@/lib/plans/schemas";

export type PlanData =
  | { status: "loading" }
  | { status: "error"; message: string; retry: () => void }
  | {
      status: "ready";
      plans: PlanCard[];
      accountPlan: string | null;
      /** Without payments the dialog says an administrator changes plans (and links admins there). */
      paymentsConfigured: boolean;
      isAdmin: boolean;
    };

const CurrentAccount = z.object({ plan: z.string(), isAdmin: z.boolean() });

/**
 * The plan cards (GET /api/app/paidPlans) and the account's plan (GET
 * /api/live_api/account/current), loaded each time the dialog opens so a plan bought a moment
 * ago shows as current. Without the account the cards still show, without states.
 */
export function usePlanData(enabled: boolean, appId?: string): PlanData {
  const [attempt, setAttempt] = useState(0);
  const [data, setData] = useState<PlanData>({ status: "loading" });

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt (Try again) reloads.
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    setData({ status: "loading" });
    const query = appId ? `?appId=${encodeURIComponent(appId)}` : "";
    Promise.all([
      apiFetch(`/api/app/paidPlans${query}`).then((answer) => PaidPlansAnswer.parse(answer)),
      apiFetch("/api/live_api/account/current")
        .then((answer) => CurrentAccount.parse(answer))
        .catch(() => null),
    ]).then(
      ([{ plans, paymentsConfigured }, account]) => {
        if (!live) return;
        setData({
          status: "ready",
          plans,
          paymentsConfigured,
          accountPlan: account?.plan ?? null,
          isAdmin: account?.isAdmin ?? false,
        });
      },
      (err: unknown) => {
        if (!live) return;
        // A refusal (401, 403) says why; an outage or a malformed answer gets the plain message.
        const refused = err instanceof ApiError && err.status >= 400 && err.status < 500;
        const message = refused ? err.message : messages.plansLoadFailed;
        setData({ status: "error", message, retry: () => setAttempt((n) => n + 1) });
      },
    );
    return () => {
      live = false;
    };
  }, [enabled, appId, attempt]);

  return data;
}
