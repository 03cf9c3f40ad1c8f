"use client";

import { DownloadIcon, PlusIcon } from "lucide-react";
import { useCallback, useEffect, useMemo, useState } from "react";
import { toast } from "sonner";
import { ApiError, apiFetch } from "@/components/auth/api-client";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { LoadFailed } from "@/components/ui/load-failed";
import { LoadingLine } from "@/components/ui/loading-line";
import { messages } from "@/lib/messages";
import type { EntityView } from "@/lib/space/entities";
import type { EntityRecordPage, EntityRecordView } from "@/lib/space/entity-records";
import { tableColumns } from "@/lib/space/table-columns";
import { fillTemplate } from "@/lib/text";
import { BulkDeleteBar } from "./bulk-delete-bar";
import { CsvImportButton } from "./import/csv-import";
import { LoadMoreButton } from "./load-more-button";
import { RecordsTable, type TableRow } from "./records-table";
import { useBulkDelete } from "./use-bulk-delete";

/** The new row's key until the server gives it its id. */
const PENDING_ID = "00000000-0000-0000-0000-000000000000";

/** The server's reason, when it is a refusal of the input that says what is wrong (naming the field). */
function serverReason(e: unknown, field?: string): string | undefined {
  if (!(e instanceof ApiError) || e.status !== 400) return undefined;
  return field === undefined || e.message.includes(field) ? e.message : undefined;
}

type State =
  | { phase: "loading" }
  | { phase: "error" }
  | { phase: "ready"; records: EntityRecordView[]; total: number; nextCursor: string | null };

const base = (appId: string, entity: string) =>
  `/api/apps/${encodeURIComponent(appId)}/entities/${encodeURIComponent(entity)}`;

/**
 * An entity's records, newest first (createdAt descending), in a grid with a typed column per field
 * of the schema, 50 at a time with Load more; cells edited in place (saved at once, put back if the
 * server refuses), rows added (a pending row at the top until created), deleted after a confirm,
 * and Export CSV ({entity}_export_{date}.csv).
 */
export function RecordsSection({ appId, entity }: { appId: string; entity: EntityView }) {
  const [state, setState] = useState<State>({ phase: "loading" });
  const [loadingMore, setLoadingMore] = useState(false);
  const [deleting, setDeleting] = useState<EntityRecordView | null>(null);
  const [pending, setPending] = useState<EntityRecordView | null>(null);
  const columns = useMemo(() => tableColumns(entity.name, entity.fields), [entity.name, entity.fields]);

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

  const patchRecord = (id: string, update: (r: EntityRecordView) => EntityRecordView) =>
    setState((s) =>
      s.phase === "ready" ? { ...s, records: s.records.map((r) => (r.id === id ? update(r) : r)) } : s,
    );

  const rows: TableRow[] =
    state.phase === "ready"
      ? [
          ...(pending ? [{ record: pending, pending: true }] : []),
          ...state.records.map((record) => ({ record, pending: false })),
        ]
      : [];
  const bulk = useBulkDelete({
    rows,
    deleteOne: (id) => apiFetch(`${base(appId, entity.name)}/records/${id}`, { method: "DELETE" }),
    onDeleted: (ids) =>
      setState((s) =>
        s.phase === "ready"
          ? { ...s, records: s.records.filter((r) => !ids.includes(r.id)), total: s.total - ids.length }
          : s,
      ),
  });
  const [confirmBulk, setConfirmBulk] = useState(false);

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

  // One cell, saved at once and shown before the server answers; put back as it was if refused.
  const saveCell = async (row: TableRow, field: string, value: unknown) => {
    if (row.pending) {
      setPending((p) => (p ? { ...p, data: { ...p.data, [field]: value } } : p));
      return;
    }
    const before = row.record;
    patchRecord(before.id, (r) => ({ ...r, data: { ...r.data, [field]: value } }));
    try {
      const saved = await apiFetch<EntityRecordView>(`${base(appId, entity.name)}/records/${before.id}`, {
        method: "PATCH",
        body: { field, value },
      });
      patchRecord(before.id, () => saved);
    } catch (e) {
      patchRecord(before.id, () => before);
      toast.error(messages.databaseRowUpdateFailed, { description: serverReason(e, field) });
    }
  };

  const saveNew = async () => {
    if (!pending) return;
    const data = Object.fromEntries(
      Object.entries(pending.data).filter(([, v]) => v !== null && v !== undefined && v !== ""),
    );
    if (Object.keys(data).length === 0) {
      toast.error(messages.databaseRowEmpty);
      return;
    }
    try {
      const created = await apiFetch<EntityRecordView>(`${base(appId, entity.name)}/records`, { body: data });
      setPending(null);
      setState((s) =>
        s.phase === "ready" ? { ...s, records: [created, ...s.records], total: s.total + 1 } : s,
      );
      toast.success(messages.databaseRowCreated);
    } catch (e) {
      toast.error(messages.databaseRowCreateFailed, { description: serverReason(e) });
    }
  };

  const addRow = () =>
    setPending(
      (p) => p ?? { id: PENDING_ID, creatorId: null, createdAt: new Date().toISOString(), data: {} },
    );

  let body: React.ReactNode;
  if (state.phase === "loading") body = <LoadingLine text={messages.databaseLoading} />;
  else if (state.phase === "error") {
    body = <LoadFailed text={messages.databaseRecordsLoadFailed} onRetry={() => void load()} />;
  } else if (state.records.length === 0 && !pending) {
    body = <p className="text-sm text-muted-foreground">{messages.databaseRecordsEmpty}</p>;
  } else {
    body = (
      <>
        <BulkDeleteBar
          count={bulk.selected.size}
          run={bulk.run}
          onDelete={() => setConfirmBulk(true)}
          onCancel={bulk.cancel}
        />
        <RecordsTable
          label={`${messages.databaseRecords}: ${entity.name}`}
          columns={columns}
          rows={rows}
          onSaveCell={(row, field, value) => void saveCell(row, field, value)}
          onDelete={(row) => setDeleting(row.record)}
          onSaveNew={() => void saveNew()}
          onDiscardNew={() => setPending(null)}
          selection={bulk.selection}
          disabled={bulk.run?.ids}
        />
        {state.nextCursor ? <LoadMoreButton busy={loadingMore} onClick={() => void loadMore()} /> : null}
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
        {state.phase === "ready" ? (
          <Button
            variant="outline"
            size="sm"
            className="ml-auto"
            onClick={addRow}
            disabled={pending !== null}
          >
            <PlusIcon aria-hidden />
            {messages.databaseAddRow}
          </Button>
        ) : null}
        {state.phase === "ready" ? (
          <Button asChild variant="outline" size="sm">
            <a
              href={`${base(appId, entity.name)}/export`}
              download
              onClick={(e) => {
                // An empty file helps no one: say so instead.
                if (state.total > 0) return;
                e.preventDefault();
                toast.info(messages.databaseNoDataToExport);
              }}
            >
              <DownloadIcon aria-hidden />
              {messages.databaseExport}
            </a>
          </Button>
        ) : null}
        <CsvImportButton key={entity.name} appId={appId} entity={entity} onImported={load} />
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
      <ConfirmDialog
        open={confirmBulk}
        onOpenChange={setConfirmBulk}
        title={fillTemplate(messages.databaseDeleteSelectedTitle, { count: bulk.selected.size })}
        description={messages.databaseDeleteSelectedText}
        confirmLabel={messages.databaseDeleteSelected}
        destructive
        onConfirm={() => {
          setConfirmBulk(false);
          void bulk.start();
        }}
      />
    </div>
  );
}
