"use client";

import { useCallback, useSyncExternalStore } from "react";
import { apiFetch } from "@/components/auth/api-client";
import type { SaveSecretsBody, SecretList, SecretView } from "@/lib/secrets/schemas";

// The calls of the secrets dialogs (/api/apps/{appId}/secrets), and the app's saved keys as the
// chat's request_secrets cards and the dialogs share them: a save or a delete in one shows in all.
// Values only ever travel out (a save): every answer has them masked.

export type { SecretView };

const base = (appId: string) => `/api/apps/${encodeURIComponent(appId)}/secrets`;

type Entry = { secrets: SecretView[] | null; failed: boolean; loading: Promise<void> | null };
const entries = new Map<string, Entry>();
const listeners = new Map<string, Set<() => void>>();
const EMPTY: Entry = { secrets: null, failed: false, loading: null };

function set(appId: string, entry: Entry) {
  entries.set(appId, entry);
  for (const l of listeners.get(appId) ?? []) l();
}

/** Loads (again) the app's secrets into the shared list; a failure is kept as `failed`. */
export function loadSecrets(appId: string): Promise<void> {
  const current = entries.get(appId) ?? EMPTY;
  if (current.loading) return current.loading;
  const loading = apiFetch<SecretList>(base(appId))
    .then((list) => set(appId, { secrets: list.secrets, failed: false, loading: null }))
    .catch(() => set(appId, { secrets: current.secrets, failed: true, loading: null }));
  set(appId, { ...current, failed: false, loading });
  return loading;
}

/** POST: adds or replaces secrets; the shared list becomes the answer. Throws ApiError. */
export async function saveSecrets(appId: string, body: SaveSecretsBody): Promise<void> {
  const list = await apiFetch<SecretList>(base(appId), { body });
  set(appId, { secrets: list.secrets, failed: false, loading: null });
}

/** DELETE one secret by key. Throws ApiError. */
export async function deleteSecret(appId: string, key: string): Promise<void> {
  await apiFetch(`${base(appId)}/${encodeURIComponent(key)}`, { method: "DELETE" });
  const current = entries.get(appId) ?? EMPTY;
  set(appId, { ...current, secrets: current.secrets?.filter((s) => s.key !== key) ?? null });
}

/**
 * The app's saved secrets (null until loaded), whether loading them failed, and a reload. The
 * first user loads them.
 */
export function useSecrets(appId: string) {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const set = listeners.get(appId) ?? new Set();
      set.add(onChange);
      listeners.set(appId, set);
      if (!entries.get(appId)?.secrets && !entries.get(appId)?.loading) void loadSecrets(appId);
      return () => set.delete(onChange);
    },
    [appId],
  );
  const entry = useSyncExternalStore(
    subscribe,
    () => entries.get(appId) ?? EMPTY,
    () => EMPTY,
  );
  return {
    secrets: entry.secrets,
    failed: entry.failed,
    loading: entry.loading !== null,
    reload: () => loadSecrets(appId),
  };
}
