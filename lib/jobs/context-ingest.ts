import "server-only";
import crypto from "node:crypto";
import { findContextItem, setContextItemStatus } from "@/db/queries/context";
import { writeItemContent } from "@/db/queries/context-content";
import type { ContextItem } from "@/db/schema";
import { chunkLines, chunkText, countCodePoints } from "@/lib/context/chunk-text";
import {
  processedBytes,
  readStoredFile,
  storedFileKind,
  UnreadableFileError,
} from "@/lib/context/extract-file";
import { ingestStoredCsv } from "@/lib/context/ingest-csv";
import { chargeProcessing } from "@/lib/context/usage";
import { readSource } from "@/lib/integrations/read-source";
import { logError } from "@/lib/log";
import { messages } from "@/lib/messages";
import { findAppWithOwner } from "@/lib/plans/owner-plan";
import type { ContextIngestJob } from "@/lib/queue/enqueue-context";

/**
 * Turns one data source into searchable chunks: Syncing... while it works, then its chunks and
 * Synced in one transaction, so a reader sees the old state or the whole new one. Running it again
 * replaces the chunks (a retried or repeated job never doubles them). A failure that a retry may
 * cure is thrown for pg-boss to retry with backoff, the item back in Pending; on the last attempt,
 * or for a source that can never be read, the item ends in Error with a reason the builder reads.
 * The work is charged to the owner's monthly processing limit first; past it the item ends
 * 'Usage limit reached', with no retry. `jobId` is pg-boss's id, the same on every attempt.
 */
export async function runContextIngestJob(
  job: ContextIngestJob,
  opts: { finalAttempt: boolean; jobId?: string },
): Promise<void> {
  const item = await findContextItem(job.itemId);
  if (!item) return; // deleted meanwhile: nothing to do
  // The owner's plan (the charge's limit, a source's caps) comes with the app, read once.
  const found = await findAppWithOwner(item.appId);
  if (!found) return;
  const jobId = opts.jobId ?? crypto.randomUUID();
  const charge = (bytes: number) => chargeProcessing(item, found.app, found.owner, jobId, bytes);
  await setContextItemStatus(item.id, "running");
  try {
    // An upload is charged before any parsing is spent on it: a pasted text or a CSV by its size,
    // a Word file by what it unpacks to (lib/context/extract-file.ts processedBytes).
    const kind = item.source === "local files" && item.fileKey ? storedFileKind(item) : undefined;
    const stored = kind && kind !== "csv" ? await readStoredFile(item) : undefined;
    if (item.source === "local files") {
      const bytes = stored ? processedBytes(kind, stored) : item.size;
      if (!(await charge(bytes))) return await usageLimitReached(item);
    }
    if (kind === "csv") return await ingestStoredCsv(item);
    const source = await readSource(item, found, stored);
    // A fetched source's size is known once fetched (and may change from one sync to the next).
    const fetchedSize = item.source === "local files" ? undefined : countCodePoints(source.text);
    if (fetchedSize !== undefined && !(await charge(fetchedSize))) return await usageLimitReached(item);
    const chunks = source.lines ? chunkLines(source.lines) : chunkText(source.text);
    if (chunks.length === 0) {
      await setContextItemStatus(item.id, "error", { error: messages.contextIngestEmpty });
      return;
    }
    await writeItemContent(item, async (writer, tx) => {
      await writer.addChunks(chunks);
      for (const row of source.rows ?? []) await writer.addRow(row);
      await writer.flush();
      await setContextItemStatus(item.id, "synced", { lastSyncedAt: new Date(), size: fetchedSize }, tx);
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

// Trying again this month would be refused again: the item says so and the job ends.
async function usageLimitReached(item: Pick<ContextItem, "id">) {
  await setContextItemStatus(item.id, "usage_limit_reached", { error: messages.contextMonthlyLimit });
}
