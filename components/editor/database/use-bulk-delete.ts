"use client";

import { useRef, useState } from "react";
import { toast } from "sonner";
import { messages } from "@/lib/messages";
import { deleteInChunks } from "@/lib/space/bulk-delete";
import { fillTemplate } from "@/lib/text";
import type { RowSelection, TableRow } from "./records-table";

// The Database grid's ticked rows and their bulk delete: a few at a time with a pause between
// batches (lib/space/bulk-delete.ts), the percent done, and Cancel, which stops after the batch in
// flight. Rows leave the grid as their batch is deleted; those that fail stay, with the spec's
// message.

export type BulkRun = { percent: number; cancelling: boolean; ids: ReadonlySet<string> };

export function useBulkDelete({
  rows,
  deleteOne,
  onDeleted,
}: {
  /** The grid's rows now: the selection is only ever those of them still there. */
  rows: TableRow[];
  deleteOne: (id: string) => Promise<unknown>;
  /** Ids deleted by the batch just done, to take out of the grid. */
  onDeleted: (ids: string[]) => void;
}) {
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  const [run, setRun] = useState<BulkRun | null>(null);
  const cancelRef = useRef(false);

  const present = rows.filter((r) => !r.pending).map((r) => r.record.id);
  const selected: ReadonlySet<string> = new Set(present.filter((id) => ticked.has(id)));

  const selection: RowSelection = {
    selected,
    onToggle: (row) =>
      setTicked((t) => {
        const next = new Set(t);
        if (next.has(row.record.id)) next.delete(row.record.id);
        else next.add(row.record.id);
        return next;
      }),
    onToggleAll: () =>
      setTicked(selected.size === present.length && present.length > 0 ? new Set() : new Set(present)),
  };

  const start = async () => {
    const ids = [...selected];
    if (ids.length === 0 || run) return;
    cancelRef.current = false;
    setRun({ percent: 0, cancelling: false, ids: new Set(ids) });
    let reported = 0;
    const result = await deleteInChunks(ids, {
      deleteOne,
      cancelled: () => cancelRef.current,
      onProgress: (p) => {
        const fresh = p.deleted.slice(reported);
        reported = p.deleted.length;
        if (fresh.length > 0) onDeleted(fresh);
        setRun((r) => (r ? { ...r, percent: p.percent } : r));
      },
    });
    setRun(null);
    setTicked((t) => new Set([...t].filter((id) => !result.deleted.includes(id))));
    if (result.failed.length > 0) toast.error(messages.databaseRecordDeleteFailed);
    const count = result.deleted.length;
    if (result.cancelled) toast.info(fillTemplate(messages.databaseBulkDeleteCancelled, { count }));
    else if (count > 0) toast.success(fillTemplate(messages.databaseBulkDeleted, { count }));
  };

  const cancel = () => {
    cancelRef.current = true;
    setRun((r) => (r ? { ...r, cancelling: true } : r));
  };

  return { selection, selected, run, start, cancel };
}
