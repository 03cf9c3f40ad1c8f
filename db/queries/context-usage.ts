import { and, eq, sql } from "drizzle-orm";
import { db, type Executor } from "../client";
import { contextItems, contextUsage } from "../schema";

// The data an account's apps ingested per calendar month (UTC), against the plan's monthly
// processing limit. The month is the database's, so every server agrees on when it turns.
const THIS_MONTH = sql`(date_trunc('month', now() at time zone 'utc'))::date`;

/** What the account has used this month, in bytes (characters for text). */
export async function monthlyContextUsage(accountId: string, ex: Executor = db()): Promise<number> {
  const [row] = await ex
    .select({ bytes: contextUsage.bytes })
    .from(contextUsage)
    .where(and(eq(contextUsage.accountId, accountId), eq(contextUsage.month, THIS_MONTH)));
  return row?.bytes ?? 0;
}

/**
 * Adds `bytes` to this month's usage if the total stays within `limit`, in one statement: the row
 * is locked by the upsert and the condition read on its latest version, so parallel reservations
 * can never pass the limit together. False when it would.
 */
export async function reserveMonthlyContextUsage(
  accountId: string,
  bytes: number,
  limit: number,
  ex: Executor = db(),
): Promise<boolean> {
  const res = await ex.execute(sql`
    insert into context_usage (account_id, month, bytes)
    select ${accountId}, ${THIS_MONTH}, ${bytes}::bigint
    where ${bytes}::bigint <= ${limit}::bigint
    on conflict (account_id, month) do update
      set bytes = context_usage.bytes + excluded.bytes
      where context_usage.bytes + excluded.bytes <= ${limit}::bigint
    returning bytes`);
  return res.rows.length > 0;
}

/**
 * Records that `jobId` is the job the item's processing is charged to; false when it already was
 * (a retry of the same job) or the item is gone.
 */
export async function markItemUsageJob(itemId: string, jobId: string, ex: Executor): Promise<boolean> {
  const rows = await ex
    .update(contextItems)
    .set({ usageJobId: jobId })
    .where(and(eq(contextItems.id, itemId), sql`${contextItems.usageJobId} is distinct from ${jobId}`))
    .returning({ id: contextItems.id });
  return rows.length > 0;
}
