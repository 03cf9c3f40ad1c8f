import { TABLE_BULK_DELETE_CHUNK, TABLE_BULK_DELETE_PAUSE_MS } from "@/lib/constants";

// Deleting many of the Database table's rows through the one-record DELETE: a few at a time (in
// parallel), with a pause between batches, reporting after each batch, and stopping after the
// current batch when cancelled. Pure and client-safe: the panel passes the request to run.

export type BulkProgress = {
  /** Ids deleted so far (in the order the batches finished). */
  deleted: string[];
  /** Ids whose delete failed. */
  failed: string[];
  /** Ids done, deleted or failed, out of the total. */
  done: number;
  total: number;
  /** 0 to 100, whole. */
  percent: number;
};

export type BulkResult = BulkProgress & { cancelled: boolean };

export type BulkOptions = {
  deleteOne: (id: string) => Promise<unknown>;
  /** Called after each batch, with what is done so far. */
  onProgress?: (progress: BulkProgress) => void;
  /** Read before each batch: true stops the run there. */
  cancelled?: () => boolean;
  chunk?: number;
  pauseMs?: number;
  /** The pause; a test may pass its own. */
  sleep?: (ms: number) => Promise<void>;
};

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Splits a list into batches of `size` (the last one may be shorter). */
export function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += Math.max(1, size)) out.push(items.slice(i, i + Math.max(1, size)));
  return out;
}

export async function deleteInChunks(ids: readonly string[], options: BulkOptions): Promise<BulkResult> {
  const {
    deleteOne,
    onProgress,
    cancelled = () => false,
    chunk = TABLE_BULK_DELETE_CHUNK,
    pauseMs = TABLE_BULK_DELETE_PAUSE_MS,
    sleep = wait,
  } = options;
  const total = ids.length;
  const deleted: string[] = [];
  const failed: string[] = [];
  const progress = (): BulkProgress => {
    const done = deleted.length + failed.length;
    return {
      deleted: [...deleted],
      failed: [...failed],
      done,
      total,
      percent: total === 0 ? 100 : Math.floor((done / total) * 100),
    };
  };
  const batches = chunksOf(ids, chunk);
  for (const [i, batch] of batches.entries()) {
    if (cancelled()) return { ...progress(), cancelled: true };
    const results = await Promise.allSettled(batch.map((id) => deleteOne(id)));
    for (const [j, r] of results.entries()) (r.status === "fulfilled" ? deleted : failed).push(batch[j]!);
    onProgress?.(progress());
    if (i < batches.length - 1) await sleep(pauseMs);
  }
  return { ...progress(), cancelled: false };
}
