import "server-only";
import { QUEUES } from "@/db/job-queues";
import { setContextItemStatus } from "@/db/queries/context";
import { AppError } from "@/lib/errors";
import { logError } from "@/lib/log";
import { messages } from "@/lib/messages";
import { boss } from "@/lib/queue/boss";

export type ContextIngestJob = { itemId: string };

/**
 * Queues the ingestion of a saved item. If the queue refuses it, the item says Error (it would
 * otherwise wait in Pending for ever) and the request fails with the spec's upload message.
 */
export async function queueContextIngest(itemId: string): Promise<void> {
  try {
    await (await boss()).send(QUEUES.contextIngest, { itemId } satisfies ContextIngestJob);
  } catch (err) {
    logError("context ingest not queued", { itemId, err });
    await setContextItemStatus(itemId, "error", { error: messages.contextIngestFailed }).catch(() => {});
    throw new AppError("INTERNAL", "contextUploadFailed", "context/not-queued");
  }
}
