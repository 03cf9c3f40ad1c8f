"use client";

import { DownloadIcon, Trash2Icon } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { toast } from "sonner";
import { apiFetch } from "@/components/auth/api-client";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { LoadFailed } from "@/components/ui/load-failed";
import { LoadingLine } from "@/components/ui/loading-line";
import { messages } from "@/lib/messages";
import type { EntityView } from "@/lib/space/entities";
import type { EntityRecordPage, EntityRecordView } from "@/lib/space/entity-records";
import { fillTemplate } from "@/lib/text";
import { formatCell } from "./entity-text";

type State =
  | { phase: "loading" }
  | { phase: "error" }
  | { phase: "ready"; records: EntityRecordView[]; total: number; nextCursor: string | null };

const base = (appId: string, entity: string) =>
  `/api/apps/${encodeURIComponent(appId)}/entities/${encodeURIComponent(entity)}`;

/**
 * An entity's records, newest first (createdAt descending): a column per field of the
 * schema and when it was created, 50 at a time with Load more, Delete per record after a confirm,
 * and Export CSV ({entity}_export_{date}.csv).
 */
export function RecordsSection({ appId, entity }: { appId: string; entity: EntityView }) {
  const [state, setState] = useState<State>({ phase: "loading" });
  const [loadingMore, setLoadingMore] = useState(false);
  const [deleting, setDeleting] = useState<EntityRecordView | null>(null);
  const columns = entity.fields.filter((f) => !f.builtIn && !f.name.includes(".")).map((f) => f.name);

  const load = useCallback(async () => {
    setState({ phase: "loading" });
    try {
      const page = await apiFetch<EntityRecordPage>(`${base(appId, entity.name)}/records`);
      setState({ phase: "ready", ...page });
    } catch {
      setState({ phase: "error" });
    }
  }, [appId, entity.name]);
  useEffect(() => {
    void load();
  }, [load]);

  const loadMore = async () => {
    if (state.phase !== "ready" || !state.nextCursor) return;
    setLoadingMore(true);
    try {
      const query = new URLSearchParams({ cursor: state.nextCursor });
      const page = await apiFetch<EntityRecordPage>(`${base(appId, entity.name)}/records?${query}`);
      setState({ ...page, phase: "ready", records: [...state.records, ...page.records] });
    } catch {
      toast.error(messages.databaseRecordsLoadFailed);
    } finally {
      setLoadingMore(false);
    }
  };

  const remove = async (record: EntityRecordView) => {
    try {
      await apiFetch(`${base(appId, entity.name)}/records/${record.id}`, { method: "DELETE" });
      setState((s) =>
        s.phase === "ready"
          ? { ...s, records: s.records.filter((r) => r.id !== record.id), total: s.total - 1 }
          : s,
      );
      toast.success(messages.databaseRecordDeleted);
    } catch {
      toast.error(messages.databaseRecordDeleteFailed);
    }
  };

  let body: React.ReactNode;
  if (state.phase === "loading") body = <LoadingLine text={messages.databaseLoading} />;
  else if (state.phase === "error") {
    body = <LoadFailed text={messages.databaseRecordsLoadFailed} onRetry={() => void load()} />;
  } else if (state.records.length === 0) {
    body = <p className="text-sm text-muted-foreground">{messages.databaseRecordsEmpty}</p>;
  } else {
    body = (
      <>
        <div className="overflow-x-auto rounded-lg border border-border">
          <table className="w-full text-sm">
            <caption className="sr-only">{`${messages.databaseRecords}: ${entity.name}`}</caption>
            <thead className="bg-muted/50 text-left text-xs text-muted-foreground">
              <tr>
                {columns.map((c) => (
                  <th key={c} scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                    {c}
                  </th>
                ))}
                <th scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                  {messages.databaseCreatedAt}
                </th>
                <th scope="col" className="px-3 py-2">
                  <span className="sr-only">{messages.databaseDeleteRecord}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {state.records.map((r) => (
                <tr key={r.id} className="border-t border-border align-top">
                  {columns.map((c) => (
                    <td key={c} className="max-w-48 px-3 py-2 break-words">
                      {formatCell(r.data[c])}
                    </td>
                  ))}
                  <td className="px-3 py-2 whitespace-nowrap text-muted-foreground">
                    <time dateTime={r.createdAt}>{new Date(r.createdAt).toLocaleString()}</time>
                  </td>
                  <td className="px-1 py-1">
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={messages.databaseDeleteRecord}
                      onClick={() => setDeleting(r)}
                    >
                      <Trash2Icon aria-hidden />
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {state.nextCursor ? (
          <Button
            variant="outline"
            size="sm"
            className="justify-self-start"
            disabled={loadingMore}
            onClick={() => void loadMore()}
          >
            {messages.databaseLoadMore}
          </Button>
        ) : null}
      </>
    );
  }

  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <h4 className="text-sm font-medium">{messages.databaseRecords}</h4>
        {state.phase === "ready" ? (
          <span className="text-xs text-muted-foreground">
            {fillTemplate(messages.databaseRecordsCount, { count: state.total })}
          </span>
        ) : null}
        {state.phase === "ready" && state.total > 0 ? (
          <Button asChild variant="outline" size="sm" className="ml-auto">
            <a href={`${base(appId, entity.name)}/export`} download>
              <DownloadIcon aria-hidden />
              {messages.databaseExport}
            </a>
          </Button>
        ) : null}
      </div>
      {body}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={messages.databaseDeleteRecordTitle}
        description={messages.databaseDeleteRecordText}
        confirmLabel={messages.databaseDeleteRecord}
        destructive
        onConfirm={() => {
          if (deleting) void remove(deleting);
          setDeleting(null);
        }}
      />
    </div>
  );
}
