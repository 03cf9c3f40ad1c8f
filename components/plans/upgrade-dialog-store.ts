"use client";

import { useSyncExternalStore } from "react";
import type { UpgradeReason } from "@/lib/plans/upgrade-reasons";

// The one way to open the upgrade dialog from anywhere on a builder page: a limit prompt calls
// openUpgradeDialog({ reason: "dataItems" }); the UpgradeDialogHost mounted in the builder
// layout shows it. A tiny external store rather than a context, so plain functions (an upload
// handler, a failed save) can open it too.

export type UpgradeDialogRequest = {
  /** The limit that was hit: the dialog says why, and highlights the plan that lifts it. */
  reason?: UpgradeReason;
  /** Show this one plan highlighted (with a way to compare all) instead of the row of cards. */
  planId?: string;
  /** The app being worked on, sent as context to GET /api/app/paidPlans. */
  appId?: string;
};

export type UpgradeDialogState = { open: false } | ({ open: true } & UpgradeDialogRequest);

const closed: UpgradeDialogState = { open: false };
let state: UpgradeDialogState = closed;
const listeners = new Set<() => void>();

function set(next: UpgradeDialogState): void {
  state = next;
  for (const listener of listeners) listener();
}

/** Opens the upgrade dialog, optionally saying which limit was reached. */
export function openUpgradeDialog(request: UpgradeDialogRequest = {}): void {
  set({ open: true, ...request });
}

export function closeUpgradeDialog(): void {
  if (state.open) set(closed);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useUpgradeDialogState(): UpgradeDialogState {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => closed,
  );
}
