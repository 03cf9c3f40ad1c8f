import { describe, expect, it } from "vitest";
import { TABLE_BULK_DELETE_CHUNK, TABLE_BULK_DELETE_PAUSE_MS } from "@/lib/constants";
import { chunksOf, deleteInChunks } from "@/lib/space/bulk-delete";

// Bulk delete of the Database table's rows: 5 at a time with a 200 ms pause between batches, the
// percent after each batch, failures kept apart, and Cancel stopping after the current batch.

const ids = (n: number) => Array.from({ length: n }, (_, i) => `r${i + 1}`);

describe("bulk delete in chunks", () => {
  it("uses the spec's batch of 5 and pause of 200 ms", () => {
    expect(TABLE_BULK_DELETE_CHUNK).toBe(5);
    expect(TABLE_BULK_DELETE_PAUSE_MS).toBe(200);
    expect(chunksOf(ids(12), 5).map((c) => c.length)).toEqual([5, 5, 2]);
    expect(chunksOf([], 5)).toEqual([]);
  });

  it("deletes 5 at a time, pausing between batches (not after the last), with the percent after each", async () => {
    const inFlight: number[] = [];
    let running = 0;
    const pauses: number[] = [];
    const percents: number[] = [];
    const result = await deleteInChunks(ids(12), {
      deleteOne: async () => {
        running++;
        inFlight.push(running);
        await Promise.resolve();
        running--;
      },
      sleep: async (ms) => {
        pauses.push(ms);
      },
      onProgress: (p) => percents.push(p.percent),
    });
    expect(Math.max(...inFlight)).toBe(5);
    expect(pauses).toEqual([200, 200]);
    expect(percents).toEqual([41, 83, 100]);
    expect(result).toMatchObject({ done: 12, total: 12, percent: 100, cancelled: false, failed: [] });
    expect(result.deleted).toEqual(ids(12));
  });

  it("keeps failures apart and goes on", async () => {
    const result = await deleteInChunks(ids(7), {
      deleteOne: async (id) => {
        if (id === "r2" || id === "r6") throw new Error("refused");
      },
      sleep: async () => {},
    });
    expect(result.failed).toEqual(["r2", "r6"]);
    expect(result.deleted).toEqual(["r1", "r3", "r4", "r5", "r7"]);
    expect(result.percent).toBe(100);
  });

  it("stops after the current batch when cancelled", async () => {
    let cancel = false;
    const asked: string[] = [];
    const result = await deleteInChunks(ids(15), {
      deleteOne: async (id) => {
        asked.push(id);
        // Cancel comes while the second batch is in flight: it still finishes, the third never starts.
        if (id === "r7") cancel = true;
      },
      cancelled: () => cancel,
      sleep: async () => {},
    });
    expect(asked).toEqual(ids(10));
    expect(result).toMatchObject({ cancelled: true, done: 10, total: 15, percent: 66 });
  });

  it("really waits between batches by default", async () => {
    const started: number[] = [];
    await deleteInChunks(ids(6), {
      deleteOne: async () => {
        started.push(performance.now());
      },
      pauseMs: 50,
    });
    // The sixth began after the pause; a loose lower bound only (a busy machine is only slower).
    expect(started[5]! - started[0]!).toBeGreaterThanOrEqual(45);
  });
});
