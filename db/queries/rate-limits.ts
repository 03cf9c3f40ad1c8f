import { eq, sql } from "drizzle-orm";
import { db, type Executor } from "../client";
import { rateLimits } from "../schema";

/**
 * Adds `by` to a fixed-window counter and returns the count in the current window.
 * A window older than `windowSeconds` restarts at `by`.
 */
export async function bumpCounter(
  key: string,
  windowSeconds: number,
  by = 1,
  ex: Executor = db(),
): Promise<number> {
  const result = await ex.execute<{ count: number }>(sql`
    INSERT INTO rate_limits (key, window_start, count) VALUES (${key}, now(), ${by})
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limits.window_start < now() - make_interval(secs => ${windowSeconds})
                   THEN ${by} ELSE rate_limits.count + ${by} END,
      window_start = CASE WHEN rate_limits.window_start < now() - make_interval(secs => ${windowSeconds})
                   THEN now() ELSE rate_limits.window_start END
    RETURNING count`);
  return Number(result.rows[0]?.count ?? 0);
}

export async function deleteCounter(key: string, ex: Executor = db()): Promise<void> {
  await ex.delete(rateLimits).where(eq(rateLimits.key, key));
}
