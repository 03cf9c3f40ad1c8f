"use client";

import { useEffect, useState } from "react";
import { apiFetch } from "@/components/auth/api-client";
import type { CsvImportView } from "@/lib/app-data/csv-import";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";

// The import an import_entities action started, followed while it runs (the job goes on when the
// tab closes; reopened, the card reads where it is): queued, rows so far, then the result's sentence.

const POLL_MS = 1000;

export function ImportOutcome({
  appId,
  entity,
  importId,
}: {
  appId: string;
  entity: string;
  importId: string;
}) {
  const [view, setView] = useState<CsvImportView | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const path = `/api/apps/${encodeURIComponent(appId)}/entities/${encodeURIComponent(entity)}/imports/${encodeURIComponent(importId)}`;
    const read = async () => {
      try {
        const v = await apiFetch<CsvImportView>(path);
        if (stopped) return;
        setView(v);
        if (v.status === "queued" || v.status === "importing") timer = setTimeout(read, POLL_MS);
      } catch {
        if (!stopped) setFailed(true);
      }
    };
    void read();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [appId, entity, importId]);

  const text = failed
    ? messages.csvImportFailed
    : !view || view.status === "queued"
      ? messages.chatImportQueued
      : view.status === "importing"
        ? fillTemplate(messages.chatImportRunning, { done: view.imported + view.failed })
        : (view.message ?? "");
  const bad = failed || view?.status === "failed";
  return (
    <p
      role="status"
      className={cn(
        "border-t border-border px-2.5 py-1.5 text-xs",
        bad ? "text-destructive" : "text-muted-foreground",
      )}
    >
      {text}
    </p>
  );
}
