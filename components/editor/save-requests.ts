"use client";

import { getBearerToken } from "@/components/auth/token-store";
import type { ToolView } from "@/lib/apps/editor-app";
import type { AppContent, AppSettings, AppStyle, ToolContent } from "@/lib/apps/schemas";
import type { SaveOutcome } from "./save-engine";

// The four save requests of the editor, each answering a SaveOutcome the engine understands:
// ok with the saved record and its new revision, a 409 with the version it lost to, a rule error
// with the server's message (kept, not retried), or a transient failure (kept and retried).

/** The editable value of one tool, flat: its title is its header (the server keeps them equal). */
export type ToolRecord = ToolContent & Pick<ToolView, "path" | "imageUrl" | "status">;

export function toolRecord(tool: Pick<ToolView, "content" | "path" | "imageUrl" | "status">): ToolRecord {
  return { ...tool.content, path: tool.path, imageUrl: tool.imageUrl, status: tool.status };
}

type Answer = { status: number; data: Record<string, unknown> | null };

async function call(method: string, path: string, body: unknown): Promise<Answer | null> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  const token = getBearerToken();
  if (token) headers.authorization = `Bearer ${token}`;
  try {
    const res = await fetch(path, {
      method,
      headers,
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
    const data = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    return { status: res.status, data };
  } catch {
    return null; // the network: the server was never reached, or the answer was lost
  }
}

/**
 * Sorts a non-2xx answer. A 5xx, a lost connection, an expired session (401), a timeout (408)
 * or a rate limit (429) are worth retrying; any other 4xx is a rule the edit broke.
 */
function failure<V>(
  answer: Answer | null,
  current: (data: Record<string, unknown>) => { revision: number; value: V } | null,
) {
  if (!answer) return { ok: false, kind: "transient" } as const;
  const error = (answer.data?.error ?? {}) as { code?: string; message?: string };
  if (answer.status === 409 && error.code === "REVISION_CONFLICT" && answer.data) {
    const theirs = current(answer.data);
    if (theirs) return { ok: false, kind: "conflict", current: theirs } as const;
  }
  if (answer.status >= 500) return { ok: false, kind: "transient" } as const;
  if ([401, 408, 429].includes(answer.status))
    return { ok: false, kind: "transient", message: error.message } as const;
  return { ok: false, kind: "rule", message: error.message ?? "" } as const;
}

const ok = (status: number) => status >= 200 && status < 300;

/** PATCH /api/apps/{appId} { baseRevision, app } */
export async function saveAppContent(
  appId: string,
  patch: Partial<AppContent>,
  baseRevision: number,
): Promise<SaveOutcome<AppContent>> {
  const answer = await call("PATCH", `/api/apps/${appId}`, { baseRevision, app: patch });
  if (answer && ok(answer.status) && answer.data) {
    return { ok: true, revision: answer.data.revision as number, value: answer.data.app as AppContent };
  }
  return failure(answer, (data) => {
    const c = data.current as { revision: number; app: AppContent } | undefined;
    return c ? { revision: c.revision, value: c.app } : null;
  });
}

/** POST /api/apps/{appId}/style { baseRevision, appStyle } */
export async function saveAppStyle(
  appId: string,
  patch: Partial<AppStyle>,
  baseRevision: number,
): Promise<SaveOutcome<AppStyle>> {
  const answer = await call("POST", `/api/apps/${appId}/style`, { baseRevision, appStyle: patch });
  if (answer && ok(answer.status) && answer.data) {
    return { ok: true, revision: answer.data.revision as number, value: answer.data.appStyle as AppStyle };
  }
  return failure(answer, (data) => {
    const c = (data.current as { style?: { revision: number; appStyle: AppStyle } } | undefined)?.style;
    return c ? { revision: c.revision, value: c.appStyle } : null;
  });
}

/** POST /api/apps/{appId}/settings { baseRevision, appSettings } */
export async function saveAppSettings(
  appId: string,
  patch: Partial<AppSettings>,
  baseRevision: number,
): Promise<SaveOutcome<AppSettings>> {
  const answer = await call("POST", `/api/apps/${appId}/settings`, { baseRevision, appSettings: patch });
  if (answer && ok(answer.status) && answer.data) {
    return {
      ok: true,
      revision: answer.data.revision as number,
      value: answer.data.appSettings as AppSettings,
    };
  }
  return failure(answer, (data) => {
    const c = (data.current as { settings?: { revision: number; appSettings: AppSettings } } | undefined)
      ?.settings;
    return c ? { revision: c.revision, value: c.appSettings } : null;
  });
}

/** PATCH /api/apps/{appId}/tools/{toolId} { baseRevision, tool }: the flat record split back. */
export async function saveTool(
  appId: string,
  toolId: string,
  patch: Partial<ToolRecord>,
  baseRevision: number,
): Promise<SaveOutcome<ToolRecord>> {
  const { path, imageUrl, status, ...content } = patch;
  const tool: Record<string, unknown> = {};
  if (path !== undefined) tool.path = path;
  if (imageUrl !== undefined) tool.imageUrl = imageUrl;
  if (status !== undefined) tool.status = status;
  if (Object.keys(content).length > 0) tool.content = content;
  const answer = await call("PATCH", `/api/apps/${appId}/tools/${toolId}`, { baseRevision, tool });
  if (answer && ok(answer.status) && answer.data) {
    const saved = answer.data as unknown as ToolView;
    return { ok: true, revision: saved.revision, value: toolRecord(saved) };
  }
  return failure(answer, (data) => {
    const c = data.current as ToolView | undefined;
    return c ? { revision: c.revision, value: toolRecord(c) } : null;
  });
}
