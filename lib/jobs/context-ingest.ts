import "server-only";
import { db } from "@/db/client";
import {
  findContextItem,
  replaceContextChunks,
  replaceContextRows,
  setContextItemStatus,
} from "@/db/queries/context";
import { chunkText } from "@/lib/context/chunk-text";
import { UnreadableFileError } from "@/lib/context/extract-file";
import { readSource } from "@/lib/context/read-source";
import { logError } from "@/lib/log";
import { messages } from "@/lib/messages";
import type { ContextIngestJob } from "./enqueue-context";

/**
 * Turns one data source into searchable chunks: Syncing... while it works, then its chunks and
 * Synced in one transaction, so a reader sees the old state or the whole new one. Running it again
 * replaces the chunks (a retried or repeated job never doubles them). A failure that a retry may
 * cure is thrown for pg-boss to retry with backoff, the item back in Pending; on the last attempt,
 * or for a source that can never be read, the item ends in Error with a reason the builder reads.
 */
export async function runContextIngestJob(
  job: ContextIngestJob,
  opts: { finalAttempt: boolean },
): Promise<void> {
  const item = await findContextItem(job.itemId);
  if (!item) return; // deleted meanwhile: nothing to do
  await setContextItemStatus(item.id, "running");
  try {
    const source = await readSource(item);
    const chunks = chunkText(source.text);
    if (chunks.length === 0) {
      await setContextItemStatus(item.id, "error", { error: messages.contextIngestEmpty });
      return;
    }
    await db().transaction(async (tx) => {
      await replaceContextChunks(item, chunks, tx);
      if (source.rows) await replaceContextRows(item, source.rows, tx);
      await setContextItemStatus(item.id, "synced", { lastSyncedAt: new Date() }, tx);
    });
  } catch (err) {
    if (err instanceof UnreadableFileError) {
      // Parsing it again would fail again: Error now, with the reason, and no retry.
      await setContextItemStatus(item.id, "error", { error: messages[err.reason] });
      return;
    }
    logError("context ingest failed", { itemId: item.id, finalAttempt: opts.finalAttempt, err });
    await setContextItemStatus(item.id, opts.finalAttempt ? "error" : "pending", {
      error: opts.finalAttempt ? messages.contextIngestFailed : null,
    });
    if (!opts.finalAttempt) throw err;
  }
}
