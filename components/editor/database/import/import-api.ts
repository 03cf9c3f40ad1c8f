"use client";

import { apiFetch } from "@/components/auth/api-client";
import { sendWithProgress } from "@/components/uploads/xhr-upload";
import type { CsvImportView } from "@/lib/app-data/csv-import";
import type { CsvMapping } from "@/lib/csv/schemas";
import { toCsv } from "@/lib/format/csv";
import { messages } from "@/lib/messages";

// The wizard's calls: the upload (a form of the mapping and the file, with its progress), the
// import's state, read once a second while it runs, and the import a closed tab left running,
// remembered in this browser so that reopening the panel shows its progress.

export const importsUrl = (appId: string, entity: string) =>
  `/api/apps/${encodeURIComponent(appId)}/entities/${encodeURIComponent(entity)}/imports`;

/** How often a running import's state is read. */
export const IMPORT_POLL_MS = 1000;

/** Starts the import; answers its id, or the server's reason (the spec's words) it was refused. */
export async function uploadImport(
  appId: string,
  entity: string,
  file: File,
  mappings: CsvMapping[],
  onProgress: (percent: number) => void,
): Promise<{ importId: string } | { error: string }> {
  const form = new FormData();
  form.set("mapping", JSON.stringify(mappings));
  form.set("file", file, file.name);
  const answer = await sendWithProgress(importsUrl(appId, entity), form, { onProgress });
  const body = answer.body as { importId?: string; error?: { message?: string } } | null;
  if (answer.status === 200 && body?.importId) return { importId: body.importId };
  return { error: body?.error?.message ?? messages.csvImportFailed };
}

export const readImport = (appId: string, entity: string, importId: string) =>
  apiFetch<CsvImportView>(`${importsUrl(appId, entity)}/${encodeURIComponent(importId)}`);

export const importEnded = (view: CsvImportView) => view.status === "complete" || view.status === "failed";

/** The running import of this entity, and the file's row count (the total while the job counts). */
export type RunningImport = { importId: string; rows: number | null };

const storageKey = (appId: string, entity: string) => `csv-import:${appId}:${entity}`;

export function rememberImport(appId: string, entity: string, running: RunningImport | null): void {
  try {
    if (running) localStorage.setItem(storageKey(appId, entity), JSON.stringify(running));
    else localStorage.removeItem(storageKey(appId, entity));
  } catch {
    // Storage off (private mode): a closed tab then forgets the import; it still runs.
  }
}

export function rememberedImport(appId: string, entity: string): RunningImport | null {
  try {
    const raw = localStorage.getItem(storageKey(appId, entity));
    const parsed = raw ? (JSON.parse(raw) as Partial<RunningImport>) : null;
    if (typeof parsed?.importId !== "string") return null;
    return { importId: parsed.importId, rows: typeof parsed.rows === "number" ? parsed.rows : null };
  } catch {
    return null;
  }
}

/** Saves the failed rows as {entity}_import_failed_rows.csv: row number and reason. */
export function downloadFailedRows(entity: string, rows: CsvImportView["failedRows"]): void {
  const csv = toCsv(
    [messages.csvImportRow, messages.csvImportReason],
    rows.map((r) => [String(r.row), r.reason]),
  );
  const url = URL.createObjectURL(new Blob([csv], { type: "text/csv;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = `${entity}_import_failed_rows.csv`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
