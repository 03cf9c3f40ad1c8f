import { sql } from "drizzle-orm";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import { logError } from "@/lib/log";
import * as schema from "./schema";

export type Db = NodePgDatabase<typeof schema>;
/** A transaction or the database itself: every query function takes one. */
export type Executor = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

type Holder = { pool?: pg.Pool; db?: Db };
// Survives Next's hot reload in development, so a reload does not leak pools.
const g = globalThis as { __builderDb?: Holder };
g.__builderDb ??= {};
const holder = g.__builderDb;

export function pool(): pg.Pool {
  if (!holder.pool) {
    const connectionString = process.env.DATABASE_URL;
    if (!connectionString) throw new Error("DATABASE_URL is not set");
    holder.pool = new pg.Pool({ connectionString, max: Number(process.env.DATABASE_POOL_MAX ?? 10) });
    // An idle connection the server drops (a restart, a terminated backend) is discarded by the
    // pool and replaced on the next query; unhandled, its error would end the whole process.
    holder.pool.on("error", (err) => logError("database connection lost", { err }));
  }
  return holder.pool;
}

export function db(): Db {
  holder.db ??= drizzle(pool(), { schema });
  return holder.db;
}

export async function closeDb(): Promise<void> {
  const p = holder.pool;
  holder.pool = undefined;
  holder.db = undefined;
  await p?.end();
}

/**
 * Holds a lock named by `key` until the transaction ends: requests that take the same key run
 * one at a time, so a limit counted under it cannot be passed by a parallel burst.
 */
export async function lockUntilCommit(key: string, ex: Executor): Promise<void> {
  await ex.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
}

/** Whether a query failed on a unique index (PostgreSQL 23505), as drizzle or pg report it. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.code === "23505" || e.cause?.code === "23505";
}
