"use client";

import { apiFetch } from "@/components/auth/api-client";
import type { MergeResult } from "@/lib/functions/merge-and-deploy";
import type { ChatAssistantState } from "@/lib/space/assistant";
import type { CodeFiles } from "@/lib/space/code-schemas";
import type { RatingBody } from "@/lib/space/schemas";
import type { VersionDetail } from "@/lib/space/versions";
import type { ChatMessageView, RatingView, VersionSummary } from "@/lib/space/views";

// The calls of the space app chat view, typed by the shapes the routes answer
// (lib/space/views.ts, imported for its types only: the module stays on the server).

export type { ChatAssistantState, ChatMessageView, MergeResult, RatingView, VersionDetail, VersionSummary };

export type HistoryPage = { messages: ChatMessageView[]; hasMore: boolean };
export type RestoreAnswer = { messages: ChatMessageView[]; version: VersionSummary };
export type RevertAnswer = { removedMessageIds: string[]; version: VersionSummary };

const base = (appId: string) => `/api/apps/${encodeURIComponent(appId)}`;

/** GET /api/apps/{appId}/chat/history?fromMessageId={id}&limit=50: the page before `fromMessageId`. */
export function fetchHistory(
  appId: string,
  fromMessageId: string | null,
  limit: number,
): Promise<HistoryPage> {
  const query = new URLSearchParams({ fromMessageId: fromMessageId ?? "", limit: String(limit) });
  return apiFetch<HistoryPage>(`${base(appId)}/chat/history?${query}`);
}

/** GET /api/apps/{id}/versions?limit=1: the app's current version (null: no files yet). */
export async function fetchCurrentVersion(appId: string): Promise<VersionSummary | null> {
  const answer = await apiFetch<{ current: VersionSummary | null }>(`${base(appId)}/versions?limit=1`);
  return answer.current;
}

/** GET /api/apps/{appId}/files: the app's current files with their contents and revisions. */
export function fetchCurrentFiles(appId: string): Promise<CodeFiles> {
  return apiFetch<CodeFiles>(`${base(appId)}/files`);
}

/**
 * GET /api/apps/{id}/versions/{versionId}: the version's files (unless files=none) and its changes
 * against its parent or the current files; sides=first adds the first changed file's two sides.
 */
export function fetchVersionDetail(
  appId: string,
  versionId: string,
  query: { files?: "all" | "none"; against?: "parent" | "current"; sides?: "none" | "first" } = {},
): Promise<VersionDetail> {
  const params = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined));
  const tail = params.size > 0 ? `?${params}` : "";
  return apiFetch<VersionDetail>(`${base(appId)}/versions/${encodeURIComponent(versionId)}${tail}`);
}

/** POST .../versions/{versionId}/restore: a restore message and a new version equal to that one. */
export function restoreVersion(appId: string, versionId: string, messageId: string): Promise<RestoreAnswer> {
  return apiFetch<RestoreAnswer>(`${base(appId)}/versions/${versionId}/restore`, { body: { messageId } });
}

export type MergeFile = { id: string; path: string; content: string };

/** POST /api/apps/{appId}/merge: the chosen files as one version, the functions among them deployed. */
/** `autofix`: the files are a repair's, and the chat's notice says so. */
export function mergeChosenFiles(appId: string, files: MergeFile[], autofix = false): Promise<MergeResult> {
  return apiFetch<MergeResult>(`${base(appId)}/merge`, { body: { files, autofix } });
}

/** POST .../versions/{versionId}/undo-restore: `messageId` is the restore message. */
export function undoRestore(appId: string, versionId: string, messageId: string): Promise<RestoreAnswer> {
  return apiFetch<RestoreAnswer>(`${base(appId)}/versions/${versionId}/undo-restore`, {
    body: { messageId },
  });
}

/** POST .../versions/{versionId}/revert: back to a message's version; the later messages leave. */
export function revertToVersion(appId: string, versionId: string, messageId: string): Promise<RevertAnswer> {
  return apiFetch<RevertAnswer>(`${base(appId)}/versions/${versionId}/revert`, {
    body: { messageId, confirm: true },
  });
}

/** POST /api/apps/{appId}/rating. */
export function rateMessage(appId: string, body: RatingBody): Promise<{ rating: RatingView }> {
  return apiFetch<{ rating: RatingView }>(`${base(appId)}/rating`, { body });
}

/** POST /api/apps/{appId}/chat/activate. */
export function activateChatAssistant(appId: string, isActive: boolean): Promise<ChatAssistantState> {
  return apiFetch<ChatAssistantState>(`${base(appId)}/chat/activate`, { body: { isActive } });
}
