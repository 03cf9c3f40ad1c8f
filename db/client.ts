import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
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
