import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { messages } from "@/lib/messages";
import { streamSlotStats, takeStreamSlot } from "@/lib/realtime/stream-slots";

const limits = { perAccount: 2, perProcess: 3 };

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error("not refused");
}

describe("stream slots", () => {
  it("caps streams per process across accounts; a released slot is free again, once", () => {
    const base = streamSlotStats().total;
    const a1 = takeStreamSlot("acct-a", limits);
    const a2 = takeStreamSlot("acct-a", limits);
    const b1 = takeStreamSlot("acct-b", limits);
    const full = refusal(() => takeStreamSlot("acct-c", limits));
    expect(full.status).toBe(429);
    expect(full.code).toBe("TOO_MANY_STREAMS");
    expect(full.message).toBe(messages.serverStreamsFull);
    b1.release();
    b1.release(); // a second release frees nothing more
    expect(streamSlotStats().total).toBe(base + 2);
    const c1 = takeStreamSlot("acct-c", limits);
    expect(refusal(() => takeStreamSlot("acct-d", limits)).message).toBe(messages.serverStreamsFull);
    for (const s of [a1, a2, c1]) s.release();
    expect(streamSlotStats()).toEqual({ total: base, account: 0 });
    expect(streamSlotStats("acct-a").account).toBe(0);
  });

  it("caps streams per account before the process is full", () => {
    const a1 = takeStreamSlot("acct-e", limits);
    const a2 = takeStreamSlot("acct-e", limits);
    const err = refusal(() => takeStreamSlot("acct-e", limits));
    expect(err.status).toBe(429);
    expect(err.message).toContain("(2)");
    a1.release();
    const a3 = takeStreamSlot("acct-e", limits);
    for (const s of [a2, a3]) s.release();
    expect(streamSlotStats("acct-e").account).toBe(0);
  });
});
