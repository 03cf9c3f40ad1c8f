import { and, eq, sql } from "drizzle-orm";
import { db, type Executor, lockUntilCommit } from "../client";
import { type RunKind, type RunStatus, type ToolRun, toolRuns, userMemories } from "../schema";

// Tool runs and end users' memories (lib/runs). Limit windows are calendar windows in UTC.

export type NewRun = {
  appId: string;
  toolId: string | null;
  kind: RunKind;
  userId: string | null;
  subject: string;
  inputs: Record<string, unknown>;
  model: string;
};

export type RunLimits = {
  /** Credits this run costs (0: never limited). */
  credits: number;
  daily: number | null;
  weekly: number | null;
};

export type LimitRefusal = {
  period: "day" | "week";
  limit: number;
  used: number;
  resetsAt: Date;
};

export type Reservation = { ok: true; run: ToolRun } | { ok: false; refusal: LimitRefusal };

/**
 * Reserves a run slot: under a lock per (app, subject), sums the credits the subject spent in
 * the current day and week and inserts the 'running' row only if this run's credits fit under
 * both limits. Parallel reservations of one subject queue on the lock, so a burst can never
 * pass a limit. When both limits are reached the week is reported (it resets later).
 */
export async function reserveRun(run: NewRun, limits: RunLimits): Promise<Reservation> {
  return db().transaction(async (tx) => {
    const limited = limits.credits > 0 && (limits.daily !== null || limits.weekly !== null);
    if (limited) {
      await lockUntilCommit(`runs:${run.appId}:${run.subject}`, tx);
      const res = await tx.execute<{
        day_start: Date;
        week_start: Date;
        day_used: number;
        week_used: number;
      }>(
        sql`
        with w as (
          select (date_trunc('day', now() at time zone 'UTC') at time zone 'UTC') as day_start,
                 (date_trunc('week', now() at time zone 'UTC') at time zone 'UTC') as week_start
        )
        select w.day_start, w.week_start,
          coalesce(sum(r.credits) filter (where r.created_at >= w.day_start), 0)::int as day_used,
          coalesce(sum(r.credits) filter (where r.created_at >= w.week_start), 0)::int as week_used
        from w
        left join tool_runs r
          on r.app_id = ${run.appId} and r.subject = ${run.subject} and r.credits > 0
          and r.created_at >= least(w.day_start, w.week_start)
        group by w.day_start, w.week_start`,
      );
      const row = res.rows[0]!;
      const dayStart = new Date(row.day_start);
      const weekStart = new Date(row.week_start);
      const over = (used: number, limit: number | null) => limit !== null && used + limits.credits > limit;
      if (over(Number(row.week_used), limits.weekly)) {
        return {
          ok: false as const,
          refusal: {
            period: "week" as const,
            limit: limits.weekly!,
            used: Number(row.week_used),
            resetsAt: new Date(weekStart.getTime() + 7 * 86_400_000),
          },
        };
      }
      if (over(Number(row.day_used), limits.daily)) {
        return {
          ok: false as const,
          refusal: {
            period: "day" as const,
            limit: limits.daily!,
            used: Number(row.day_used),
            resetsAt: new Date(dayStart.getTime() + 86_400_000),
          },
        };
      }
    }
    const [inserted] = await tx
      .insert(toolRuns)
      .values({ ...run, credits: limits.credits, status: "running" })
      .returning();
    return { ok: true as const, run: inserted! };
  });
}

export type RunEnd = {
  status: Exclude<RunStatus, "running">;
  output: string;
  promptTokens: number | null;
  completionTokens: number | null;
  costUsd: number;
  costKnown: boolean;
  error: string | null;
  durationMs: number;
  /** Give the run's credits back: it produced nothing, so it does not count in the limits. */
  refund: boolean;
};

/** Ends a running run. A run already ended (by the stale sweep) is left as it is. */
export async function finishRun(id: string, end: RunEnd, ex: Executor = db()): Promise<boolean> {
  const { refund, ...rest } = end;
  const rows = await ex
    .update(toolRuns)
    .set({
      ...rest,
      ...(refund ? { credits: 0 } : {}),
      finishedAt: sql`now()`,
    })
    .where(and(eq(toolRuns.id, id), eq(toolRuns.status, "running")))
    .returning({ id: toolRuns.id });
  return rows.length > 0;
}

export async function findRun(id: string, ex: Executor = db()): Promise<ToolRun | undefined> {
  const [row] = await ex.select().from(toolRuns).where(eq(toolRuns.id, id));
  return row;
}

/**
 * Ends as 'aborted' the runs still 'running' after `olderThanMs`: their server stopped (a crash, a
 * deploy) before it could record their end. Their credits stay spent: the model may have answered.
 */
export async function abortStaleRuns(error: string, olderThanMs: number, ex: Executor = db()) {
  const res = await ex.execute(sql`
    update tool_runs set status = 'aborted', error = ${error}, finished_at = now()
    where status = 'running' and created_at < now() - make_interval(secs => ${olderThanMs / 1000})`);
  return res.rowCount ?? 0;
}

// ---- memories ----

export async function listMemories(appId: string, userId: string, ex: Executor = db()) {
  return ex
    .select({ fieldName: userMemories.fieldName, value: userMemories.value })
    .from(userMemories)
    .where(and(eq(userMemories.appId, appId), eq(userMemories.userId, userId)));
}

export async function upsertMemories(
  appId: string,
  userId: string,
  entries: readonly { fieldName: string; value: unknown }[],
  ex: Executor = db(),
): Promise<void> {
  if (entries.length === 0) return;
  await ex
    .insert(userMemories)
    .values(entries.map((e) => ({ appId, userId, fieldName: e.fieldName, value: e.value })))
    .onConflictDoUpdate({
      target: [userMemories.appId, userMemories.userId, userMemories.fieldName],
      set: { value: sql`excluded.value`, updatedAt: sql`now()` },
    });
}

export async function deleteMemories(appId: string, userId: string, ex: Executor = db()): Promise<number> {
  const rows = await ex
    .delete(userMemories)
    .where(and(eq(userMemories.appId, appId), eq(userMemories.userId, userId)))
    .returning({ fieldName: userMemories.fieldName });
  return rows.length;
}
