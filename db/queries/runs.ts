import { and, eq, getTableColumns, sql } from "drizzle-orm";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import type { PoolClient, QueryResult } from "pg";
import { db, type Executor, pool } from "../client";
import {
  appSettings,
  apps,
  type RunContext,
  type RunKind,
  type RunStatus,
  type ToolRun,
  toolRuns,
  tools,
  userMemories,
} from "../schema";

// Tool runs and end users' memories (lib/runs). Limit windows are calendar windows in UTC.

/**
 * What a run reads of its app, in one round trip: the app, its settings (null: none saved) and
 * the named tool when it is this app's (null otherwise, or when no tool is named). Built and
 * prepared once per database instance, as the session query is: a run is latency-bound.
 */
function runTargetQuery(ex: Executor) {
  return ex
    .select({ app: apps, settings: appSettings.settings, tool: tools })
    .from(apps)
    .leftJoin(appSettings, eq(appSettings.appId, apps.id))
    .leftJoin(tools, and(eq(tools.appId, apps.id), eq(tools.id, sql.placeholder("toolId"))))
    .where(eq(apps.id, sql.placeholder("appId")))
    .prepare("find_run_target");
}

const preparedRunTarget = new WeakMap<Executor, ReturnType<typeof runTargetQuery>>();

export async function findRunTarget(appId: string, toolId: string | null, ex: Executor = db()) {
  let query = preparedRunTarget.get(ex);
  if (!query) {
    query = runTargetQuery(ex);
    preparedRunTarget.set(ex, query);
  }
  const [row] = await query.execute({ appId, toolId });
  return row;
}

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

/** The current transaction commits without waiting for the disk (see reserveRun). */
const ASYNC_COMMIT = sql<string>`set_config('synchronous_commit', 'off', true)`;

/**
 * Reserves a run slot: under a lock per (app, subject), sums the credits the subject spent in
 * the current day and week and inserts the 'running' row only if this run's credits fit under
 * both limits. Parallel reservations of one subject queue on the lock, so a burst can never
 * pass a limit. When both limits are reached the week is reported (it resets later).
 *
 * The reservation's commit does not wait for its WAL to reach the disk (synchronous_commit off,
 * for its own transaction only): the row is visible to every other transaction as soon as it
 * commits, so the limits count exactly as before; only a crash of PostgreSQL itself within a
 * fraction of a second could lose it (that run would then go uncounted, its end unrecorded).
 * The flush was the largest part of the reservation (~1-2 ms) before the model is asked.
 */
export async function reserveRun(run: NewRun, limits: RunLimits): Promise<Reservation> {
  const limited = limits.credits > 0 && (limits.daily !== null || limits.weekly !== null);
  if (!limited) {
    // Nothing to count: no lock, no sums, and no transaction around the one INSERT (atomic on
    // its own). Its RETURNING sets the commit's mode: the one round trip of a reservation.
    const [inserted] = await db()
      .insert(toolRuns)
      .values({ ...run, credits: limits.credits, status: "running" })
      .returning({ ...getTableColumns(toolRuns), asyncCommit: ASYNC_COMMIT });
    const { asyncCommit: _, ...row } = inserted!;
    return { ok: true, run: row };
  }
  // With limits, one transaction in three round trips: (1) begin, the commit's mode, the lock and
  // the sums, sent as one simple query - the sums are a statement of their own, read once the lock
  // is held, so they count every run committed before (in READ COMMITTED each statement sees what
  // was committed when it starts); (2) the INSERT; (3) the commit, which releases the lock. Only
  // the app id and the subject (a uuid; "user:", "visitor:" or "preview:" and a uuid or a base64url
  // hash) are written into that query, as literals escaped by pg.
  const client = await pool().connect();
  let broken: Error | undefined;
  try {
    const lit = (s: string) => client.escapeLiteral(s);
    const results = (await client.query(
      `begin; set local synchronous_commit = off;
      select pg_advisory_xact_lock(hashtext(${lit(`runs:${run.appId}:${run.subject}`)}));
      with w as (
        select (date_trunc('day', now() at time zone 'UTC') at time zone 'UTC') as day_start,
               (date_trunc('week', now() at time zone 'UTC') at time zone 'UTC') as week_start
      )
      select w.day_start, w.week_start,
        coalesce(sum(r.credits) filter (where r.created_at >= w.day_start), 0)::int as day_used,
        coalesce(sum(r.credits) filter (where r.created_at >= w.week_start), 0)::int as week_used
      from w
      left join tool_runs r
        on r.app_id = ${lit(run.appId)} and r.subject = ${lit(run.subject)} and r.credits > 0
        and r.created_at >= least(w.day_start, w.week_start)
      group by w.day_start, w.week_start`,
    )) as unknown as QueryResult<{
      day_start: Date;
      week_start: Date;
      day_used: number;
      week_used: number;
    }>[];
    const row = results.at(-1)!.rows[0]!;
    const refusal = limitRefusal(row, limits);
    if (refusal) {
      await client.query("rollback");
      return { ok: false, refusal };
    }
    const [inserted] = await drizzleOn(client)
      .insert(toolRuns)
      .values({ ...run, credits: limits.credits, status: "running" })
      .returning();
    await client.query("commit");
    return { ok: true, run: inserted! };
  } catch (err) {
    // A connection that cannot even roll back is not given back to the pool.
    await client.query("rollback").catch((e: Error) => {
      broken = e;
    });
    throw err;
  } finally {
    client.release(broken);
  }
}

/** The limit a run of `limits.credits` would pass, given the credits used; the week first (it resets later). */
function limitRefusal(
  row: { day_start: Date; week_start: Date; day_used: number; week_used: number },
  limits: RunLimits,
): LimitRefusal | null {
  const dayStart = new Date(row.day_start);
  const weekStart = new Date(row.week_start);
  const over = (used: number, limit: number | null) => limit !== null && used + limits.credits > limit;
  if (over(Number(row.week_used), limits.weekly)) {
    return {
      period: "week",
      limit: limits.weekly!,
      used: Number(row.week_used),
      resetsAt: new Date(weekStart.getTime() + 7 * 86_400_000),
    };
  }
  if (over(Number(row.day_used), limits.daily)) {
    return {
      period: "day",
      limit: limits.daily!,
      used: Number(row.day_used),
      resetsAt: new Date(dayStart.getTime() + 86_400_000),
    };
  }
  return null;
}

// Drizzle over one checked-out connection (its transaction), made once per pooled connection.
const onClient = new WeakMap<PoolClient, NodePgDatabase>();
function drizzleOn(client: PoolClient): NodePgDatabase {
  let found = onClient.get(client);
  if (!found) {
    found = drizzle(client);
    onClient.set(client, found);
  }
  return found;
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
  /** What the model was grounded in (null: its data was never read). */
  context?: RunContext | null;
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

export type RunContextRow = {
  status: RunStatus;
  context: RunContext | null;
  /** The app holds a synced data source now (to say why a run had no excerpts). */
  hasSources: boolean;
  /** The names of the items the run's context names, by id, of those the app still holds. */
  itemNames: Record<string, string>;
};

/** A run of this app (undefined for another app's or none) with what it was grounded in, in one round trip. */
export async function findRunContext(
  appId: string,
  runId: string,
  ex: Executor = db(),
): Promise<RunContextRow | undefined> {
  const res = await ex.execute<{
    status: RunStatus;
    context: RunContext | null;
    has_sources: boolean;
    item_names: Record<string, string> | null;
  }>(sql`
    select r.status, r.context,
      exists (select 1 from context_items i where i.app_id = r.app_id and i.status = 'synced') as has_sources,
      (select jsonb_object_agg(i.id, i.name) from context_items i
        where i.app_id = r.app_id and i.id::text in (
          select x->>'itemId' from jsonb_array_elements(
            coalesce(r.context->'excerpts', r.context->'rows', '[]'::jsonb)) x)) as item_names
    from tool_runs r
    where r.id = ${runId} and r.app_id = ${appId}`);
  const row = res.rows[0];
  if (!row) return undefined;
  return {
    status: row.status,
    context: row.context,
    hasSources: row.has_sources,
    itemNames: row.item_names ?? {},
  };
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
