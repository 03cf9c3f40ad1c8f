import crypto from "node:crypto";
import type pg from "pg";
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { pool } from "../client";

/**
 * Attempt counters in PostgreSQL (table rate_limits), through rate-limiter-flexible: each
 * consume is one INSERT ... ON CONFLICT DO UPDATE ... RETURNING, so N requests racing on one key
 * are counted one after another and no more than the limit ever get through.
 */
export type Counter = {
  /** Takes one point (or `points`); false when the window has not that many left. */
  consume(key: string, points?: number): Promise<boolean>;
  /** Gives one point back (an attempt that turned out fine). */
  refund(key: string): Promise<void>;
  reset(key: string): Promise<void>;
  /**
   * Where `key`'s point lives, for a statement that takes it itself in the same row format
   * (db/queries/function-calls.ts): its row's key and the window's limit and length.
   */
  slot(key: string): CounterSlot;
};

/** One counter's row in rate_limits: its key (prefixed and hashed) and its window. */
export type CounterSlot = { rowKey: string; points: number; windowMs: number };

const limiters = new WeakMap<pg.Pool, Map<string, RateLimiterPostgres>>();

function limiter(name: string, points: number, durationS: number): RateLimiterPostgres {
  const p = pool();
  let byName = limiters.get(p);
  if (!byName) {
    byName = new Map();
    limiters.set(p, byName);
  }
  const id = `${name}:${points}:${durationS}`;
  let found = byName.get(id);
  if (!found) {
    found = new RateLimiterPostgres({
      storeClient: p,
      storeType: "pool",
      tableName: "rate_limits",
      // The table comes from our migrations; expired rows are deleted by the prune job.
      tableCreated: true,
      clearExpiredByTimeout: false,
      keyPrefix: name,
      points,
      duration: durationS,
    });
    byName.set(id, found);
  }
  return found;
}

// Keys carry addresses and emails: stored hashed, and always short enough for the column.
const hashKey = (key: string) => crypto.createHash("sha256").update(key).digest("base64url");

export function counter(name: string, points: number, durationS: number): Counter {
  const rl = () => limiter(name, points, durationS);
  return {
    async consume(key, n = 1) {
      try {
        await rl().consume(hashKey(key), n);
        return true;
      } catch (err) {
        if (err instanceof RateLimiterRes) return false;
        throw err;
      }
    },
    async refund(key) {
      await rl().reward(hashKey(key));
    },
    async reset(key) {
      await rl().delete(hashKey(key));
    },
    slot(key) {
      // rate-limiter-flexible's own row key: its prefix, a colon, the key it was given.
      return { rowKey: `${name}:${hashKey(key)}`, points, windowMs: durationS * 1000 };
    },
  };
}

/** Counters whose window has ended are deleted (rate-limiter-flexible's expire, in epoch ms). */
export async function deleteExpiredCounters(): Promise<number> {
  const res = await pool().query("DELETE FROM rate_limits WHERE expire < $1", [Date.now()]);
  return res.rowCount ?? 0;
}
