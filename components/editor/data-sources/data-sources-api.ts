"use client";

import { ApiError, apiFetch } from "@/components/auth/api-client";
import { sendWithProgress } from "@/components/uploads/xhr-upload";
import { messages } from "@/lib/messages";
import { isUpgradeReason, type UpgradeReason } from "@/lib/plans/upgrade-reasons";

// The calls of the Data Sources panel and dialog (the /api/context routes), and how a failed
// one reads to the builder.

/** A data source as GET /api/context/items lists it. */
export type ContextItemView = {
  id: string;
  name: string;
  type: string;
  source: string;
  status: string;
  error: string | null;
  size: number;
  createdAt: string;
  lastSyncedAt: string | null;
  externalFileUrl: string | null;
  externalFileId: string | null;
  providerItemId: string | null;
  provider: string | null;
};

export type ContextItemsAnswer = { contextItems: ContextItemView[]; hasReachedDataLimit: boolean };

/** What GET /api/context/events sends as `event: status`. */
export type StatusEvent = { id: string; status: string; error: string | null; lastSyncedAt: string | null };

/** The connectors of the dialog: the name in their routes, and the `source` of their items. */
export const CONNECTORS = {
  notion: { source: "notion", label: messages.dataSourceOptionNotion },
  "google-drive": { source: "google drive", label: messages.dataSourceOptionDrive },
} as const;
export type ConnectorId = keyof typeof CONNECTORS;

export type ConnectorState = {
  configured: boolean;
  missingEnv: string[];
  connected: boolean;
  /** The provider's name for the connected account (a workspace, an email), when it gives one. */
  accountName?: string | null;
};

/** GET /api/integrations/fetchCarbonTokens: the connect token, the plan's limits, the connectors' state. */
export type ConnectorTokens = {
  accessToken: string;
  expiresAt: string;
  maxFiles: number;
  webScraper: { maxDepth: number; maxPages: number };
  connectors: Record<ConnectorId, ConnectorState>;
};

export type ConnectorFile = {
  externalFileId: string;
  name: string;
  type: string;
  externalFileUrl?: string | null;
};

/** One entry of POST /api/context/ingest/metadata. */
export type ConnectorItem =
  | { source: "web scraper"; url: string }
  | {
      source: "notion" | "google drive";
      externalFileId: string;
      name: string;
      type: string;
      externalFileUrl?: string;
    };

const enc = encodeURIComponent;

/** Where an ingest call goes; `replacing` lets the new item take the old one's place in the plan's count. */
function ingestUrl(kind: "text" | "file" | "metadata", appId: string, extra: Record<string, string> = {}) {
  const query = new URLSearchParams({ appId, ...extra });
  return `/api/context/ingest/${kind}?${query}`;
}

const replacingQuery = (replacing?: string): Record<string, string> => (replacing ? { replacing } : {});

export const fetchContextItems = (appId: string) =>
  apiFetch<ContextItemsAnswer>(`/api/context/items?appId=${enc(appId)}`);

export const renameContextItem = (id: string, name: string) =>
  apiFetch(`/api/context/${enc(id)}`, { method: "PATCH", body: { name } });

export const deleteContextItem = (id: string) => apiFetch(`/api/context/${enc(id)}`, { method: "DELETE" });

export const syncContextItem = (id: string) => apiFetch(`/api/context/${enc(id)}/sync`, { method: "POST" });

export async function ingestText(appId: string, context: string, replacing?: string): Promise<string> {
  const answer = await apiFetch<{ contextItemId: string }>(
    ingestUrl("text", appId, replacingQuery(replacing)),
    {
      body: { context },
    },
  );
  return answer.contextItemId;
}

export async function ingestConnectorItems(
  appId: string,
  contextItems: ConnectorItem[],
  replacing?: string,
): Promise<string[]> {
  const answer = await apiFetch<{ contextItemIds: string[] }>(
    ingestUrl("metadata", appId, replacingQuery(replacing)),
    { body: { contextItems } },
  );
  return answer.contextItemIds;
}

/**
 * POST /api/context/ingest/file?appId=&name= with the file's bytes as the body, reporting the
 * upload's progress. Resolves with the new item's id; rejects with an ApiError (status 0 when
 * the network failed) or an AbortError.
 */
export async function uploadContextFile(
  appId: string,
  file: File,
  opts: { replacing?: string; onProgress?: (percent: number) => void; signal?: AbortSignal } = {},
): Promise<string> {
  const url = ingestUrl("file", appId, { name: file.name, ...replacingQuery(opts.replacing) });
  const { status, body } = await sendWithProgress(url, file, {
    onProgress: opts.onProgress,
    signal: opts.signal,
    contentType: "application/octet-stream",
  });
  const id = (body as { contextItemId?: unknown } | null)?.contextItemId;
  if (status >= 200 && status < 300 && typeof id === "string") return id;
  throw ApiError.fromBody(status, body, messages.contextUploadFailed);
}

export const replaceDataItem = (appId: string, oldItemId: string, newItemId: string) =>
  apiFetch(`/api/tools/${enc(appId)}/replaceDataItem`, { body: { oldItemId, newItemId } });

export const fetchConnectorTokens = (appId: string) =>
  apiFetch<ConnectorTokens>(`/api/integrations/fetchCarbonTokens?appId=${enc(appId)}`);

export async function listConnectorFiles(provider: ConnectorId, appId: string, q: string) {
  const query = new URLSearchParams({ appId, q });
  const answer = await apiFetch<{ files: ConnectorFile[] }>(`/api/integrations/${provider}/files?${query}`);
  return answer.files;
}

export const disconnectConnector = (provider: ConnectorId) =>
  apiFetch(`/api/integrations/${provider}`, { method: "DELETE" });

export const connectUrl = (provider: ConnectorId, token: string) =>
  `/api/integrations/${provider}/authorize?token=${enc(token)}`;

/**
 * The plan limit an add ran into (403 PLAN_LIMIT), as its answer's `upgradeReason` names it (the
 * data items, the connector files), for the upgrade dialog; null for any other failure.
 */
export function planLimitReason(err: unknown): UpgradeReason | null {
  if (!(err instanceof ApiError && err.status === 403 && err.code === "PLAN_LIMIT")) return null;
  const reason = err.extra.upgradeReason;
  return typeof reason === "string" && isUpgradeReason(reason) ? reason : null;
}

/**
 * The message of a failed add: the app is not saved yet (404); the server's own
 * words for what it refused (400: 'Please enter some text', the CSV headers, the monthly
 * processing limit...; 413: the size); otherwise the add's own failure sentence.
 */
export function addFailureMessage(err: unknown, fallback: string): string {
  if (!(err instanceof ApiError)) return fallback;
  if (err.status === 404) return messages.contextSaveAppFirst;
  if ((err.status === 400 || err.status === 413) && err.message && err.code !== "INTERNAL")
    return err.message;
  return fallback;
}
