import "server-only";
import { deleteDeadAuthCodes } from "@/db/queries/auth-codes";
import { failOrphanedContextItems } from "@/db/queries/context";
import { deleteExpiredCounters } from "@/db/queries/rate-limits";
import { abortStaleRuns } from "@/db/queries/runs";
import { deleteDeadSessions } from "@/db/queries/sessions";
import { deleteUnusedRunPhotos } from "@/db/queries/uploads";
import { RUN_STALE_MS } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { deleteStoredObjects } from "@/lib/uploads/upload-image";

// A used link is kept a day, so that opening it again can still say "already verified".
const USED_CODE_GRACE_MS = 24 * 60 * 60 * 1000;
// Revoked or expired sessions are kept a week for the record, then deleted.
const DEAD_SESSION_GRACE_MS = 7 * 24 * 60 * 60 * 1000;

// A photo picked for a run that was never run: the run form has long been left by then.
const UNUSED_RUN_PHOTO_GRACE_MS = 24 * 60 * 60 * 1000;

// An item is saved a moment before its job is queued; one this long without a status change
// and without a live job is not about to get one.
const ORPHANED_ITEM_IDLE_SECONDS = 5 * 60;

/**
 * Keeps the tables of short-lived rows small however long the server runs (every 10 minutes),
 * deletes the photos end users uploaded for runs they never ran (row and stored object), and ends
 * in Error the data sources no job will finish (their job ran out of attempts while its
 * worker was dying, or was never queued), so none stays Pending or Syncing... for ever.
 */
export async function pruneExpired() {
  const now = Date.now();
  return {
    authCodes: await deleteDeadAuthCodes(new Date(now - USED_CODE_GRACE_MS)),
    rateLimits: await deleteExpiredCounters(),
    sessions: await deleteDeadSessions(new Date(now - DEAD_SESSION_GRACE_MS)),
    orphanedContextItems: await failOrphanedContextItems(messages.contextIngestFailed, {
      seconds: ORPHANED_ITEM_IDLE_SECONDS,
    }),
    // Runs whose server stopped (a crash, a deploy) before it could record their end.
    staleRuns: await abortStaleRuns(messages.runServerStopped, RUN_STALE_MS),
    unusedRunPhotos: await pruneUnusedRunPhotos(new Date(now - UNUSED_RUN_PHOTO_GRACE_MS)),
  };
}

/** The row goes first, so no run can take the photo once its object is being deleted. */
async function pruneUnusedRunPhotos(before: Date): Promise<number> {
  const keys = await deleteUnusedRunPhotos(before);
  await deleteStoredObjects(keys);
  return keys.length;
}
