"use client";

import { apiFetch } from "@/components/auth/api-client";
import { VERSIONS_LIST_DEFAULT } from "@/lib/constants";
import type { FileAtVersion, FileHistoryEntry, FileHistoryPage } from "@/lib/space/file-history";
import type { VersionList } from "@/lib/space/versions";

// The calls of the Versions dialog and the version history dialog per file, typed
// by the shapes the routes answer (imported for their types only: the modules stay on the server).

export type { FileAtVersion, FileHistoryEntry, FileHistoryPage, VersionList };

const base = (appId: string) => `/api/apps/${encodeURIComponent(appId)}`;

/** GET /api/apps/{id}/versions?limit=10: "the latest 10 plus the current one with an intermediate count". */
export function fetchVersionList(appId: string, limit = VERSIONS_LIST_DEFAULT): Promise<VersionList> {
  return apiFetch<VersionList>(`${base(appId)}/versions?limit=${limit}`);
}

/** GET /api/apps/{appId}/files/history?path=&before=: a page of the versions that changed one file. */
export function fetchFileHistory(
  appId: string,
  path: string,
  before: number | null,
): Promise<FileHistoryPage> {
  const query = new URLSearchParams({ path });
  if (before !== null) query.set("before", String(before));
  return apiFetch<FileHistoryPage>(`${base(appId)}/files/history?${query}`);
}

/**
 * GET /api/apps/{appId}/versions/{versionId}/file?path=: one file as a version had it, and the
 * version before (or, against=current, the current files).
 */
export function fetchFileAtVersion(
  appId: string,
  versionId: string,
  path: string,
  against: "parent" | "current" = "parent",
): Promise<FileAtVersion> {
  const query = new URLSearchParams({ path });
  if (against === "current") query.set("against", against);
  return apiFetch<FileAtVersion>(`${base(appId)}/versions/${encodeURIComponent(versionId)}/file?${query}`);
}
