"use client";

import { ApiError, apiFetch } from "@/components/auth/api-client";
import type { ToolView } from "@/lib/apps/editor-app";

// The tools collection's calls. Saves of one tool's content go through the
// editor's tool saver instead (components/editor/use-record-saver.ts).

export type { ToolView };

type ToolPatch = Partial<Pick<ToolView, "title" | "path" | "imageUrl" | "status">>;

const base = (appId: string) => `/api/apps/${appId}/tools`;

/** GET /api/apps/{appId}: the app's tools in their order. */
export async function fetchTools(appId: string): Promise<ToolView[]> {
  return (await apiFetch<{ tools: ToolView[] }>(`/api/apps/${appId}`)).tools;
}

/** POST /api/apps/{appId}/tools: a new draft tool at the end. */
export function createTool(appId: string, body: { title: string; path: string }): Promise<ToolView> {
  return apiFetch<ToolView>(base(appId), { method: "POST", body });
}

/**
 * PATCH /api/apps/{appId}/tools/{toolId} for one explicit action (activate, a thumbnail). The
 * action names only its own keys, so when the tool moved on meanwhile (409: edited in another
 * tab) it is sent again once on the current revision instead of failing: nothing else is
 * overwritten.
 */
export async function patchTool(appId: string, tool: ToolView, patch: ToolPatch): Promise<ToolView> {
  const send = (revision: number) =>
    apiFetch<ToolView>(`${base(appId)}/${tool.toolId}`, {
      method: "PATCH",
      body: { baseRevision: revision, tool: patch },
    });
  try {
    return await send(tool.revision);
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 409 && err.code === "REVISION_CONFLICT")) throw err;
    const fresh = (await fetchTools(appId)).find((t) => t.toolId === tool.toolId);
    if (!fresh) throw err;
    return send(fresh.revision);
  }
}

/** DELETE /api/apps/{appId}/tools/{toolId}; one already gone counts as deleted. */
export async function deleteTool(appId: string, toolId: string): Promise<void> {
  try {
    await apiFetch(`${base(appId)}/${toolId}`, { method: "DELETE" });
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) throw err;
  }
}

/** PUT /api/apps/{appId}/tools/order: answers the tools in their new order. */
export async function reorderTools(appId: string, toolIds: string[]): Promise<ToolView[]> {
  return (await apiFetch<{ tools: ToolView[] }>(`${base(appId)}/order`, { method: "PUT", body: { toolIds } }))
    .tools;
}

export const toolName = (title: string, fallback: string) => title.trim() || fallback;
