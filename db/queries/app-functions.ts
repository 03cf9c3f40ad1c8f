import { and, asc, eq, sql } from "drizzle-orm";
import { db, type Executor, pool } from "../client";
import { type App, type AppFunction, type AppSecret, appFunctions } from "../schema";
import type { CounterSlot } from "./rate-limits";

// A space app's deployed functions (lib/functions/deploy.ts): the code each instance runs and
// each function's deploy state.

export async function listAppFunctions(appId: string, ex: Executor = db()): Promise<AppFunction[]> {
  return ex.select().from(appFunctions).where(eq(appFunctions.appId, appId)).orderBy(asc(appFunctions.name));
}

export async function findAppFunction(
  appId: string,
  name: string,
  ex: Executor = db(),
): Promise<AppFunction | undefined> {
  const [row] = await ex
    .select()
    .from(appFunctions)
    .where(and(eq(appFunctions.appId, appId), eq(appFunctions.name, name)));
  return row;
}

/** A deploy starts: the state says so; the code last deployed keeps serving until it succeeds. */
export async function markFunctionDeploying(
  appId: string,
  name: string,
  fileName: string,
  ex: Executor = db(),
): Promise<void> {
  await ex
    .insert(appFunctions)
    .values({ appId, name, fileName, state: "deploying" })
    .onConflictDoUpdate({
      target: [appFunctions.appId, appFunctions.name],
      set: { state: "deploying", error: null, updatedAt: new Date() },
    });
}

/** A deploy succeeded: its code is what every instance runs from now on. */
export async function saveFunctionDeployed(
  values: {
    appId: string;
    name: string;
    fileName: string;
    code: string;
    codeHash: string;
    deployedBy: string;
  },
  ex: Executor = db(),
): Promise<AppFunction> {
  const now = new Date();
  const row = { ...values, state: "success" as const, error: null, deployedAt: now, updatedAt: now };
  const [saved] = await ex
    .insert(appFunctions)
    .values(row)
    .onConflictDoUpdate({ target: [appFunctions.appId, appFunctions.name], set: row })
    .returning();
  return saved!;
}

/** A deploy failed: the state and the reason; the code last deployed (if any) is kept. */
export async function saveFunctionFailed(
  appId: string,
  name: string,
  fileName: string,
  error: string,
  ex: Executor = db(),
): Promise<void> {
  await ex
    .insert(appFunctions)
    .values({ appId, name, fileName, state: "error", error })
    .onConflictDoUpdate({
      target: [appFunctions.appId, appFunctions.name],
      set: { state: "error", error, updatedAt: sql`now()` },
    });
}

/** What a public call of a function needs, read in the statement that took the caller's point. */
export type FunctionCallRead = {
  /** The point was taken (the address is under its limit); nothing below is read otherwise. */
  allowed: boolean;
  app: Pick<App, "type" | "status"> | null;
  /** The deployed function (null: never deployed with success, or the app does not serve it). */
  deployed: {
    fileName: string;
    codeHash: string | null;
    /** null when `codeHash` is the one the caller said it holds: its copy is current. */
    code: string | null;
  } | null;
  /** The app's secrets, read only when the function will run. */
  secrets: {
    /** A digest of every sealed row: any save, delete or reseal changes it. */
    version: string;
    /** null when `version` is the one the caller said it holds. */
    sealed: Pick<AppSecret, "key" | "sealedValue" | "keyId">[] | null;
  } | null;
};

// One statement, one round trip: the per-address point first (rate-limiter-flexible's upsert in
// the same row format, so the limit is one counter whichever code takes it), then, only if it was
// granted, the app, then the deployed code only for a published space app, then its secrets only
// for a deployed function: each read is gated on the one before (a refused caller reads nothing;
// `limit 1` keeps each subquery whole, so its condition on the row before is checked once, before
// its scan, instead of after a join).
// The code and the sealed secrets come back only when they differ from the caller's copy (by the
// code's SHA-256 and the secrets' digest), so a warm call carries neither. Its commit does not
// wait for the disk (synchronous_commit off, this transaction only): the point is visible to
// every other transaction as soon as it commits, exactly as before; only a crash of PostgreSQL
// itself within a fraction of a second could lose it. The flush was most of the call's time.
const RESERVE_AND_READ = `
with reserved as (
  insert into rate_limits (key, points, expire) values ($1, 1, $2)
  on conflict (key) do update set
    points = case when rate_limits.expire <= $3 then 1 else rate_limits.points + 1 end,
    expire = case when rate_limits.expire <= $3 then $2 else rate_limits.expire end
  returning points <= $4 as allowed
)
select r.allowed, set_config('synchronous_commit', 'off', true) as async_commit,
  a.type as app_type, a.status as app_status,
  f.file_name, f.code_hash, f.code,
  v.version as secrets_version, s.sealed as secrets
from reserved r
left join lateral (select type, status from apps where id = $5 and r.allowed limit 1) a on true
left join lateral (
  select file_name, code_hash,
    case when code_hash is null or code_hash <> $7 then code end as code
  from app_functions
  where app_id = $5 and name = $6 and code is not null and a.type = 'space' and a.status = 'active'
  limit 1
) f on true
left join lateral (
  select md5(coalesce(string_agg(key || ':' || key_id || ':' || sealed_value, ',' order by key), '')) as version
  from app_secrets
  where app_id = $5 and f.file_name is not null
) v on f.file_name is not null
left join lateral (
  select case when v.version <> $8 then coalesce(
    json_agg(json_build_object('key', key, 'sealedValue', sealed_value, 'keyId', key_id) order by key),
    '[]'::json) end as sealed
  from app_secrets
  where app_id = $5 and v.version <> $8
) s on true`;

type Row = {
  allowed: boolean;
  app_type: App["type"] | null;
  app_status: App["status"] | null;
  file_name: string | null;
  code_hash: string | null;
  code: string | null;
  secrets_version: string | null;
  secrets: Pick<AppSecret, "key" | "sealedValue" | "keyId">[] | null;
};

/**
 * Takes the caller's point and reads what the call needs, in one statement (see above). `known`
 * is what the caller already holds: the code's hash and the secrets' version ("" for none).
 */
export async function reserveFunctionCallAndRead(
  slot: CounterSlot,
  appId: string,
  name: string,
  known: { codeHash: string; secretsVersion: string },
): Promise<FunctionCallRead> {
  const now = Date.now();
  const { rows } = await pool().query<Row>({
    name: "function-call-reserve-and-read",
    text: RESERVE_AND_READ,
    values: [
      slot.rowKey,
      now + slot.windowMs,
      now,
      slot.points,
      appId,
      name,
      known.codeHash,
      known.secretsVersion,
    ],
  });
  const row = rows[0]!;
  return {
    allowed: row.allowed,
    app: row.app_type && row.app_status ? { type: row.app_type, status: row.app_status } : null,
    deployed: row.file_name ? { fileName: row.file_name, codeHash: row.code_hash, code: row.code } : null,
    secrets:
      row.secrets_version === null
        ? null
        : {
            version: row.secrets_version,
            sealed: row.secrets,
          },
  };
}
