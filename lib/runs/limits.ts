import "server-only";
import { type NewRun, reserveRun } from "@/db/queries/runs";
import type { ToolRun } from "@/db/schema";
import type { AppSettings } from "@/lib/apps/schemas";
import { AppError } from "@/lib/errors";
import type { RunLimitInfo } from "./schemas";

// Per-user limits of an app (daily and weekly, 1-100; credits per run 0-20). The
// limits count credits: each run spends creditsPerRun, and a window's limit is the credits a user
// may spend in it - with the default of 1 credit a run, a limit of 10 is 10 runs; a tool of 0
// credits is never limited. Windows are calendar days and ISO weeks in UTC. Previews by the
// app's builder are free of these limits and cost no credits: they spend the builder's own
// model budget instead (lib/ai/model-budget.ts).

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "on Tue, 4 Mar at 00:00 UTC": the server does not know the reader's time zone, so it says UTC. */
export function resetsAtText(d: Date): string {
  const hh = String(d.getUTCHours()).padStart(2, "0");
  const mm = String(d.getUTCMinutes()).padStart(2, "0");
  return `on ${WEEKDAYS[d.getUTCDay()]}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} at ${hh}:${mm} UTC`;
}

/**
 * Reserves the run's slot (inserts it as 'running') within the subject's limits, atomically.
 * @throws AppError 429 DAILY_LIMIT_REACHED / WEEKLY_LIMIT_REACHED, with `limit` beside `error`
 */
export async function reserveRunSlot(
  run: NewRun,
  settings: Pick<AppSettings, "dailyUserLimit" | "weeklyUserLimit" | "creditsPerRun">,
  preview: boolean,
): Promise<ToolRun> {
  const credits = preview ? 0 : settings.creditsPerRun;
  const res = await reserveRun(run, {
    credits,
    daily: preview ? null : settings.dailyUserLimit,
    weekly: preview ? null : settings.weeklyUserLimit,
  });
  if (res.ok) return res.run;
  const { refusal } = res;
  const limit: RunLimitInfo = {
    period: refusal.period,
    limit: refusal.limit,
    used: refusal.used,
    creditsPerRun: credits,
    resetsAt: refusal.resetsAt.toISOString(),
  };
  const day = refusal.period === "day";
  throw new AppError(
    "RATE_LIMITED",
    { key: day ? "runDailyLimit" : "runWeeklyLimit", vars: { resetsAt: resetsAtText(refusal.resetsAt) } },
    day ? "DAILY_LIMIT_REACHED" : "WEEKLY_LIMIT_REACHED",
    { limit },
  );
}
