import { ApiError } from "@/components/auth/api-client";
import { publicAppMessages } from "@/lib/messages/public-app";
import { runsMessages } from "@/lib/messages/runs";
import { type MembershipProduct, MembershipProduct as MembershipProductSchema } from "@/lib/payments/schemas";
import { RunLimitInfo } from "@/lib/runs/schemas";
import { fillTemplate } from "@/lib/text";

// What a refused run tells the user: the server's message as it is, with the field, product or
// limit it names; a reached limit's reset time in the reader's own time zone (the server's
// message can only say UTC). No React here: the end-to-end tests compute the same words.

export type RunErrorInfo = {
  /** The server's message as it is, or ours for what happens in the browser. */
  message: string;
  /** The server's code (SIGN_IN_REQUIRED, DAILY_LIMIT_REACHED...); ours: CANCELLED, INTERRUPTED, NETWORK. */
  code: string;
  /** The input field the error is about. */
  field?: string;
  /** MEMBERSHIP_REQUIRED: what to buy. */
  product?: MembershipProduct | null;
};

/** "on Tue, 4 Mar at 01:00" in the reader's own time zone (the server can only say UTC). */
export function localResetsAt(iso: string, timeZone?: string): string | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return fillTemplate(publicAppMessages.publicRunResetsAt, {
    date: `${part("weekday")}, ${part("day")} ${part("month")}`,
    time: `${part("hour")}:${part("minute")}`,
  });
}

/** The error a refused run's JSON answer reads as; limits get their reset time in local words. */
export function refusalOf(status: number, body: unknown): RunErrorInfo {
  const err = ApiError.fromBody(status, body, runsMessages.runFailed);
  const info: RunErrorInfo = { message: err.message, code: err.code };
  if (typeof err.extra.field === "string") info.field = err.extra.field;
  if (err.code === "MEMBERSHIP_REQUIRED") {
    const product = MembershipProductSchema.safeParse(err.extra.product);
    info.product = product.success ? product.data : null;
  }
  if (err.code === "DAILY_LIMIT_REACHED" || err.code === "WEEKLY_LIMIT_REACHED") {
    const limit = RunLimitInfo.safeParse(err.extra.limit);
    const resetsAt = limit.success ? localResetsAt(limit.data.resetsAt) : null;
    if (resetsAt) {
      const template =
        err.code === "DAILY_LIMIT_REACHED" ? runsMessages.runDailyLimit : runsMessages.runWeeklyLimit;
      info.message = fillTemplate(template, { resetsAt });
    }
  }
  return info;
}
