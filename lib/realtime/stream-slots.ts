import "server-only";
import { STREAMS_PER_ACCOUNT, STREAMS_PER_PROCESS } from "@/lib/constants";
import { AppError } from "@/lib/errors";

/**
 * Open long-lived answers (Server-Sent Event streams) counted per account and per process, so
 * one account cannot hold thousands of connections, subscribers and timers in a server, and a
 * server never holds more than it can serve. A stream takes a slot before it starts and gives it
 * back when it ends, however it ends; over a cap the request is refused with 429.
 */

type Counts = { total: number; perAccount: Map<string, number> };

// Survives Next's hot reload in development, like the LISTEN connection: streams opened before a
// reload still hold their slots.
const g = globalThis as { __builderStreamSlots?: Counts };
g.__builderStreamSlots ??= { total: 0, perAccount: new Map() };
const counts = g.__builderStreamSlots;

export type StreamSlot = {
  /** Gives the slot back; later calls do nothing, so every end of a stream may call it. */
  release: () => void;
};

export type StreamLimits = { perAccount: number; perProcess: number };

const DEFAULT_LIMITS: StreamLimits = { perAccount: STREAMS_PER_ACCOUNT, perProcess: STREAMS_PER_PROCESS };

/** Takes a slot for a stream of `accountId`, or throws 429 when the account or the process is full. */
export function takeStreamSlot(accountId: string, limits: StreamLimits = DEFAULT_LIMITS): StreamSlot {
  const held = counts.perAccount.get(accountId) ?? 0;
  if (held >= limits.perAccount) {
    throw new AppError(
      "RATE_LIMITED",
      { key: "tooManyStreams", vars: { max: limits.perAccount } },
      "TOO_MANY_STREAMS",
    );
  }
  if (counts.total >= limits.perProcess) {
    throw new AppError("RATE_LIMITED", "serverStreamsFull", "TOO_MANY_STREAMS");
  }
  counts.total += 1;
  counts.perAccount.set(accountId, held + 1);
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      counts.total -= 1;
      const left = (counts.perAccount.get(accountId) ?? 1) - 1;
      if (left > 0) counts.perAccount.set(accountId, left);
      else counts.perAccount.delete(accountId);
    },
  };
}

/** Streams open now, in this process and for one account (tests and health). */
export function streamSlotStats(accountId?: string): { total: number; account: number } {
  return { total: counts.total, account: accountId ? (counts.perAccount.get(accountId) ?? 0) : 0 };
}
