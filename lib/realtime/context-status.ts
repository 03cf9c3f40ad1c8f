import "server-only";
import { CONTEXT_NOTIFY_CHANNEL } from "@/db/queries/context";
import type { ContextItemStatus } from "@/db/schema";
import { type Subscription, subscribe } from "./listener";

/** A status change of a data source, as announced by db/queries/context.ts (setContextItemStatus). */
export type ContextStatusChange = {
  id: string;
  status: ContextItemStatus;
  error: string | null;
  lastSyncedAt: string | null;
};

/** Status changes of one app's data sources; notifications about other apps never reach `onChange`. */
export function subscribeContextStatus(
  appId: string,
  onChange: (change: ContextStatusChange) => void,
  onResync?: () => void,
): Subscription {
  return subscribe(CONTEXT_NOTIFY_CHANNEL, {
    onMessage: (payload) => {
      const n = JSON.parse(payload) as Partial<ContextStatusChange> & { appId?: string };
      if (n.appId !== appId || typeof n.id !== "string" || typeof n.status !== "string") return;
      onChange({ id: n.id, status: n.status, error: n.error ?? null, lastSyncedAt: n.lastSyncedAt ?? null });
    },
    onResync,
  });
}
