import "server-only";
import { deleteDeadAuthCodes } from "@/db/queries/auth-codes";
import { deleteExpiredCounters } from "@/db/queries/rate-limits";
import { deleteDeadSessions } from "@/db/queries/sessions";

// A used link is kept a day, so that opening it again can still say "already verified".
const USED_CODE_GRACE_MS = 24 * 60 * 60 * 1000;
// Revoked or expired sessions are kept a week for the record, then deleted.
const DEAD_SESSION_GRACE_MS = 7 * 24 * 60 * 60 * 1000;

/** Keeps the tables of short-lived rows small however long the server runs (every 10 minutes). */
export async function pruneExpired() {
  const now = Date.now();
  return {
    authCodes: await deleteDeadAuthCodes(new Date(now - USED_CODE_GRACE_MS)),
    rateLimits: await deleteExpiredCounters(),
    sessions: await deleteDeadSessions(new Date(now - DEAD_SESSION_GRACE_MS)),
  };
}
