import "server-only";
import { counter } from "@/db/queries/rate-limits";
import type { Session } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { getPlanCapabilities } from "@/lib/plans/capabilities";
import { sessionPlan } from "@/lib/plans/owner-plan";
import { recommendedPlanFor, type UpgradeReason } from "@/lib/plans/upgrade-reasons";
import { type Reservation, reserveSteps } from "@/lib/security/rate-limit";

// The operator pays for every model call, so each call a builder triggers (magic create, the
// space chat, previews of runs, every later AI helper) first reserves a point of the builder's
// budget: a burst allowance per minute, then a daily one, by plan (lib/plans/capabilities.ts).
// The point is taken atomically (one upsert per counter) BEFORE the model is asked, so however
// many requests race, no more than the plan allows reach the model. A new model call adds one
// line before it: `await reserveModelCall(session)`.

const MINUTE_S = 60;
const DAY_S = 24 * 60 * 60;

/** Why a refused call may be lifted by a higher plan: the client opens the upgrade dialog. */
const UPGRADE_REASON: UpgradeReason = "modelCalls";

/** The limit a refusal reports beside `error`. */
export type ModelLimitInfo = { period: "minute" | "day"; limit: number };

/**
 * Reserves one model call of the builder behind `session` (their account; a builder without one
 * by their user). Give the point back with `giveBack()` only when the model was never asked.
 * @throws AppError 429 MODEL_LIMIT_REACHED with `limit` (and `upgradeReason`, when a higher plan
 *   lifts it) beside `error`
 */
export function reserveModelCall(session: Pick<Session, "userId" | "account">): Promise<Reservation> {
  const plan = sessionPlan(session);
  const caps = getPlanCapabilities(plan);
  // The top plan has nothing to upgrade to: its refusal offers no dialog.
  const upgrade = recommendedPlanFor(UPGRADE_REASON, plan) ? { upgradeReason: UPGRADE_REASON } : {};
  const key = session.account?.accountId ?? `user:${session.userId}`;
  // One key prefix per window whatever the plan: a plan change mid-window keeps what was used.
  const minute = counter("model-calls-minute", caps.modelCallsPerMinute, MINUTE_S);
  const day = counter("model-calls-day", caps.modelCallsPerDay, DAY_S);
  return reserveSteps(
    [
      { counter: minute, key },
      { counter: day, key },
    ],
    (refused) => {
      const limit: ModelLimitInfo =
        refused.counter === minute
          ? { period: "minute", limit: caps.modelCallsPerMinute }
          : { period: "day", limit: caps.modelCallsPerDay };
      return new AppError(
        "RATE_LIMITED",
        {
          key: limit.period === "minute" ? "modelCallsPerMinuteReached" : "modelCallsPerDayReached",
          vars: { n: limit.limit },
        },
        "MODEL_LIMIT_REACHED",
        { ...upgrade, limit },
      );
    },
  );
}
