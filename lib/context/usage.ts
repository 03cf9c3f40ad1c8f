import "server-only";
import { db } from "@/db/client";
import {
  markItemUsageJob,
  monthlyContextUsage,
  reserveMonthlyContextUsage,
} from "@/db/queries/context-usage";
import type { App } from "@/db/schema";
import { AppError } from "@/lib/errors";
import type { OwnerPlan } from "@/lib/plans/owner-plan";

// The monthly data processing limit: the app owner's plan decides it, per calendar
// month (UTC), for all the owner's apps together.

const monthlyLimitError = () => new AppError("BAD_REQUEST", "contextMonthlyLimit", "context/monthly-limit");

/**
 * Refuses a new data source (400 'Monthly data processing limit has been reached') when the
 * owner's month is used up, or when `bytes` more would pass it. Only a first answer: the job
 * reserves for real, atomically, before it does the work.
 */
export async function assertProcessingLeft(
  app: Pick<App, "ownerAccountId">,
  owner: OwnerPlan,
  bytes = 0,
): Promise<void> {
  const used = await monthlyContextUsage(app.ownerAccountId);
  const limit = owner.caps.monthlyProcessingBytes;
  if (used >= limit || used + bytes > limit) throw monthlyLimitError();
}

/**
 * Charges an ingestion of the item to its owner's month: true when it may go on. A job may run
 * more than once (a retry after a failure, or after its worker died mid-way); it is charged once,
 * on its first run: the item records the id of the job it was charged for, in the same
 * transaction as the reservation, so a retry of that job finds it and passes without counting
 * again, while a new job for the item (a sync on demand) is charged anew. No refund: a run that
 * fails did the work all the same.
 */
export async function chargeProcessing(
  item: { id: string },
  app: Pick<App, "ownerAccountId">,
  owner: OwnerPlan,
  jobId: string,
  bytes: number,
): Promise<boolean> {
  const { ownerAccountId } = app;
  const limit = owner.caps.monthlyProcessingBytes;
  const refused = Symbol("refused");
  try {
    await db().transaction(async (tx) => {
      if (!(await markItemUsageJob(item.id, jobId, tx))) return;
      if (!(await reserveMonthlyContextUsage(ownerAccountId, bytes, limit, tx))) throw refused;
    });
    return true;
  } catch (err) {
    if (err === refused) return false;
    throw err;
  }
}
