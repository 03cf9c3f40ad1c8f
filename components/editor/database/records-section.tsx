"use client";

import { DownloadIcon, PlusIcon } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { toast } from "sonner";
import { ApiError, apiFetch } from "@/components/auth/api-client";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { LoadFailed } from "@/components/ui/load-failed";
import { LoadingLine } from "@/components/ui/loading-line";
import { messages } from "@/lib/messages";
import type { EntityView } from "@/lib/space/entities";
import type { EntityRecordView } from "@/lib/space/entity-records";
import { tableColumns } from "@/lib/space/table-columns";
import { fillTemplate } from "@/lib/text";
import { BulkDeleteBar } from "./bulk-delete-bar";
import { ColumnsMenu } from "./column-menu";
import { CsvImportButton } from "./import/csv-import";
import { RecordsTable, type TableRow } from "./records-table";
import { useBulkDelete } from "./use-bulk-delete";
import { sortParam, useGridView } from "./use-grid-view";
import { useRecordsPage } from "./use-records-page";

/** The new row's key until the server gives it its id. */
const PENDING_ID = "00000000-0000-0000-0000-000000000000";

/** The server's reason, when it is a refusal of the input that says what is wrong (naming the field). */
function serverReason(e: unknown, field?: string): string | undefined {
  if (!(e instanceof ApiError) || e.status !== 400) return undefined;
  return field === undefined || e.message.includes(field) ? e.message : undefined;
}

const base = (appId: string, entity: string) =>
  `/api/apps/${encodeURIComponent(appId)}/entities/${encodeURIComponent(entity)}`;

/**
 * An entity's records in a grid with a typed column per field of the schema, newest first unless
 * a column's menu sorts them (by the server), the next page loaded as the grid is scrolled near its
 * end; columns hidden and shown again (the Columns menu), the sort and the hidden columns kept in
 * this browser per entity; cells edited in place (saved at once, put back if the server refuses),
 * rows added (a pending row at the top until created), deleted after a confirm, and Export CSV
 * ({entity}_export_{date}.csv). The header counts every record of the entity.
 */
export function RecordsSection({ appId, entity }: { appId: string; entity: EntityView }) {
  const [deleting, setDeleting] = useState<EntityRecordView | null>(null);
  const [pending, setPending] = useState<EntityRecordView | null>(null);
  const columns = useMemo(() => tableColumns(entity.name, entity.fields), [entity.name, entity.fields]);
  const { view, setSort, setHidden } = useGridView(appId, entity.name, columns);
  const shown = useMemo(() => columns.filter((c) => !view.hidden.includes(c.field)), [columns, view.hidden]);
  const columnsMenuId = useId();
  const { state, loadingMore, load, loadMore, update } = useRecordsPage(
    `${base(appId, entity.name)}/records`,
    sortParam(view.sort),
  );

  const patchRecord = (id: string, change: (r: EntityRecordView) => EntityRecordView) =>
    update((s) => ({ ...s, records: s.records.map((r) => (r.id === id ? change(r) : r)) }));

  // The column's menu goes with it: the focus moves to the Columns menu, where it can come back.
  const hide = (field: string) => {
    setHidden(field, true);
    requestAnimationFrame(() => document.getElementById(columnsMenuId)?.focus());
  };

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
      update((s) => ({
        ...s,
        records: s.records.filter((r) => !ids.includes(r.id)),
        total: s.total - ids.length,
      })),
  });
  const [confirmBulk, setConfirmBulk] = useState(false);

  const remove = async (record: EntityRecordView) => {
    try {
      await apiFetch(`${base(appId, entity.name)}/records/${record.id}`, { method: "DELETE" });
      update((s) => ({ ...s, records: s.records.filter((r) => r.id !== record.id), total: s.total - 1 }));
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
      update((s) => ({ ...s, records: [created, ...s.records], total: s.total + 1 }));
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
          columns={shown}
          rows={rows}
          total={state.total + (pending ? 1 : 0)}
          hasMore={state.nextCursor !== null}
          loadingMore={loadingMore}
          onNearEnd={() => void loadMore()}
          sort={view.sort}
          onSort={setSort}
          onHide={hide}
          onSaveCell={(row, field, value) => void saveCell(row, field, value)}
          onDelete={(row) => setDeleting(row.record)}
          onSaveNew={() => void saveNew()}
          onDiscardNew={() => setPending(null)}
          selection={bulk.selection}
          disabled={bulk.run?.ids}
        />
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
          <span className="ml-auto">
            <ColumnsMenu id={columnsMenuId} columns={columns} hidden={view.hidden} onToggle={setHidden} />
          </span>
        ) : null}
        {state.phase === "ready" ? (
          <Button variant="outline" size="sm" onClick={addRow} disabled={pending !== null}>
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
