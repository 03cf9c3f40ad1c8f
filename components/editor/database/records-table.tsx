"use client";

import {
  type ColumnDef,
  columnResizingFeature,
  columnSizingFeature,
  tableFeatures,
  useTable,
} from "@tanstack/react-table";
import { useVirtualizer } from "@tanstack/react-virtual";
import { CheckIcon, Trash2Icon, XIcon } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { TABLE_ROW_HEIGHT, TABLE_VIEW_HEIGHT } from "@/lib/constants";
import { messages } from "@/lib/messages";
import type { EntityRecordView } from "@/lib/space/entity-records";
import type { TableColumn } from "@/lib/space/table-columns";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";
import { DialogEditor, editsInDialog, InlineEditor } from "./cell-editor";
import { CellValue } from "./table-cell";

// The Database panel's records as a grid: a virtual list (only the rows in view are in the page),
// column widths kept and resized by the table model (react-table),
// typed cells, resizable columns, and the keyboard of a spreadsheet: the grid is one tab stop, the
// arrows move the active cell, Enter (or a double-click) edits it, Escape cancels.

export type TableRow = { record: EntityRecordView; pending: boolean };

/** The rows ticked for a bulk action: a box per row in the actions column, and one for them all. */
export type RowSelection = {
  selected: ReadonlySet<string>;
  onToggle: (row: TableRow) => void;
  onToggleAll: () => void;
};

const ACTIONS_WIDTH = 168;

// The table model keeps the columns' widths and resizes them (within each column's min and max).
const features = tableFeatures({ columnSizingFeature, columnResizingFeature });

/** A cell's value: the record's own built-in fields, else its data. */
export function cellOf(record: EntityRecordView, field: string): unknown {
  if (field === "id" || field === "creatorId" || field === "createdAt") return record[field];
  return record.data[field];
}

type Cell = { row: number; col: number };

export function RecordsTable({
  label,
  columns,
  rows,
  onSaveCell,
  onDelete,
  onSaveNew,
  onDiscardNew,
  selection,
  disabled,
  renderCell,
}: {
  label: string;
  columns: TableColumn[];
  rows: TableRow[];
  onSaveCell: (row: TableRow, field: string, value: unknown) => void;
  /** Without it the grid has no actions column (rows are neither deleted nor added). */
  onDelete?: (row: TableRow) => void;
  onSaveNew?: () => void;
  onDiscardNew?: () => void;
  selection?: RowSelection;
  /** Rows shown but not editable (being deleted, say). */
  disabled?: ReadonlySet<string>;
  /** A cell the caller draws itself (undefined: the typed cell). */
  renderCell?: (row: TableRow, column: TableColumn) => React.ReactNode | undefined;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const columnDefs = useMemo<ColumnDef<typeof features, TableRow>[]>(
    () =>
      columns.map((c) => ({
        id: c.field,
        accessorFn: (row: TableRow) => cellOf(row.record, c.field),
        size: c.width,
        minSize: c.minWidth,
        maxSize: c.maxWidth,
      })),
    [columns],
  );
  const table = useTable({ features, columns: columnDefs, data: rows, columnResizeMode: "onChange" });
  const headers = table.getFlatHeaders();
  const [active, setActive] = useState<Cell>({ row: 0, col: 0 });
  const [editing, setEditing] = useState<Cell | null>(null);
  const wantFocus = useRef(false);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => TABLE_ROW_HEIGHT,
    overscan: 8,
  });
  const hasActions = onDelete !== undefined;
  const actionsWidth = hasActions ? ACTIONS_WIDTH : 0;
  const colCount = columns.length + (hasActions ? 1 : 0);
  const isDisabled = (row: TableRow) => disabled?.has(row.record.id) ?? false;
  const widthOf = (c: TableColumn) => table.getColumn(c.field)?.getSize() ?? c.width;
  const totalWidth = columns.reduce((sum, c) => sum + widthOf(c), 0) + actionsWidth;
  // The active cell stays within the grid as rows come and go.
  const at: Cell = {
    row: Math.min(active.row, Math.max(rows.length - 1, 0)),
    col: Math.min(active.col, colCount - 1),
  };

  // Moved with the keyboard: bring the cell into view, then focus it once it is rendered.
  useEffect(() => {
    if (!wantFocus.current || editing) return;
    wantFocus.current = false;
    virtualizer.scrollToIndex(at.row);
    requestAnimationFrame(() => {
      scrollRef.current?.querySelector<HTMLElement>(`[data-cell="${at.row}:${at.col}"]`)?.focus();
    });
  });

  const focusCell = (cell: Cell) => {
    wantFocus.current = true;
    setActive(cell);
  };

  const startEdit = (cell: Cell) => {
    const row = rows[cell.row];
    if (!row || isDisabled(row)) return;
    if (cell.col === columns.length) {
      if (row.pending) onSaveNew?.();
      else onDelete?.(row);
      return;
    }
    const column = columns[cell.col]!;
    if (column.readOnly) {
      // A cell with a control of its own (the User entity's role): Enter reaches the control.
      if (renderCell?.(row, column) !== undefined) {
        scrollRef.current
          ?.querySelector<HTMLElement>(
            `[data-cell="${cell.row}:${cell.col}"] button, [data-cell="${cell.row}:${cell.col}"] input`,
          )
          ?.focus();
      }
      return;
    }
    if (column.kind === "boolean") {
      onSaveCell(row, column.field, cellOf(row.record, column.field) !== true);
      return;
    }
    setEditing(cell);
  };

  const stopEdit = () => {
    setEditing(null);
    focusCell(at);
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    // Keys an editor or a cell's own control took, and those of a list it opened (in a portal,
    // outside the grid's element, though React passes them up through it), are not the grid's.
    if (editing || e.isDefaultPrevented() || !e.currentTarget.contains(e.target as Node)) return;
    // On a control in a cell (a button, a box), the arrows still move; Enter and Space are its own.
    const inControl = (e.target as HTMLElement).closest("[data-cell]") !== e.target;
    if (inControl && e.key === "Escape") {
      e.preventDefault();
      focusCell(at);
      return;
    }
    const moves: Record<string, Cell> = {
      ArrowUp: { row: Math.max(at.row - 1, 0), col: at.col },
      ArrowDown: { row: Math.min(at.row + 1, rows.length - 1), col: at.col },
      ArrowLeft: { row: at.row, col: Math.max(at.col - 1, 0) },
      ArrowRight: { row: at.row, col: Math.min(at.col + 1, colCount - 1) },
      Home: { row: at.row, col: 0 },
      End: { row: at.row, col: colCount - 1 },
    };
    const next = moves[e.key];
    if (next) {
      e.preventDefault();
      focusCell(next);
    } else if (inControl) {
      return;
    } else if (e.key === "Enter" || e.key === "F2") {
      e.preventDefault();
      startEdit(at);
    } else if (e.key === " " && selection && at.col === columns.length) {
      // Space ticks the row's box, as it would the box itself.
      e.preventDefault();
      const row = rows[at.row];
      if (row && !row.pending) selection.onToggle(row);
    }
  };

  const selectable = rows.filter((r) => !r.pending);
  const ticked = selection ? selectable.filter((r) => selection.selected.has(r.record.id)).length : 0;
  const allChecked =
    ticked > 0 && ticked === selectable.length ? true : ticked > 0 ? ("indeterminate" as const) : false;

  const editingRow = editing ? rows[editing.row] : undefined;
  const editingColumn = editing ? columns[editing.col] : undefined;
  const inDialog =
    editingRow &&
    editingColumn &&
    editsInDialog(editingColumn, cellOf(editingRow.record, editingColumn.field));

  return (
    <div
      ref={scrollRef}
      className="relative max-w-full min-w-0 overflow-auto rounded-lg border border-border text-sm"
      style={{ maxHeight: TABLE_VIEW_HEIGHT }}
    >
      <table
        // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a spreadsheet-like grid: arrows move between cells, Enter edits
        role="grid"
        aria-label={label}
        aria-rowcount={rows.length + 1}
        aria-colcount={colCount}
        aria-multiselectable={selection ? true : undefined}
        onKeyDown={onKeyDown}
        className="grid"
        style={{ width: totalWidth }}
      >
        <thead className="sticky top-0 z-10 grid" style={{ width: totalWidth }}>
          <tr
            aria-rowindex={1}
            className="flex bg-muted text-left text-xs text-foreground"
            style={{ height: TABLE_ROW_HEIGHT }}
          >
            {columns.map((c, i) => (
              <th
                key={c.field}
                scope="col"
                aria-colindex={i + 1}
                className="relative flex shrink-0 items-center px-2 font-medium"
                style={{ width: widthOf(c) }}
              >
                <span className="truncate">
                  {c.field === "createdAt" ? messages.databaseCreatedAt : c.field}
                </span>
                <div
                  aria-hidden
                  onMouseDown={headers[i]?.getResizeHandler()}
                  onTouchStart={headers[i]?.getResizeHandler()}
                  className="absolute top-0 right-0 h-full w-1.5 cursor-col-resize hover:bg-ring"
                />
              </th>
            ))}
            {hasActions ? (
              <th
                scope="col"
                aria-colindex={colCount}
                className="flex shrink-0 items-center gap-2 px-2"
                style={{ width: ACTIONS_WIDTH }}
              >
                {selection ? (
                  <Checkbox
                    aria-label={messages.databaseSelectAll}
                    checked={allChecked}
                    disabled={selectable.length === 0}
                    onCheckedChange={selection.onToggleAll}
                  />
                ) : null}
                <span className="sr-only">{messages.databaseRowActions}</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody className="relative grid" style={{ height: virtualizer.getTotalSize(), width: totalWidth }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index]!;
            const r = item.index;
            const cellProps = (col: number) => ({
              "aria-colindex": col + 1,
              "data-cell": `${r}:${col}`,
              tabIndex: at.row === r && at.col === col ? 0 : -1,
              onFocus: () => setActive({ row: r, col }),
              onDoubleClick: () => startEdit({ row: r, col }),
            });
            const rowDisabled = isDisabled(row);
            return (
              <tr
                key={row.record.id}
                aria-rowindex={r + 2}
                aria-disabled={rowDisabled || undefined}
                aria-selected={selection && !row.pending ? selection.selected.has(row.record.id) : undefined}
                data-state={row.pending ? "pending" : undefined}
                className={cn(
                  "absolute left-0 flex border-t border-border",
                  row.pending && "bg-accent/40",
                  rowDisabled && "opacity-60",
                  editing?.row === r && "z-20",
                )}
                style={{
                  height: TABLE_ROW_HEIGHT,
                  transform: `translateY(${item.start}px)`,
                  width: totalWidth,
                }}
              >
                {columns.map((c, col) => {
                  const value = cellOf(row.record, c.field);
                  const isEditing = editing?.row === r && editing.col === col && !inDialog;
                  return (
                    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: a td of a grid is a gridcell, which may be read-only
                    <td
                      key={c.field}
                      {...cellProps(col)}
                      aria-readonly={c.readOnly || undefined}
                      className={cn(
                        "flex shrink-0 items-center overflow-hidden px-2 whitespace-nowrap outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset",
                        c.readOnly && "text-muted-foreground",
                        isEditing && "relative overflow-visible px-0.5 py-0.5",
                      )}
                      style={{ width: widthOf(c) }}
                    >
                      {isEditing ? (
                        <InlineEditor
                          column={c}
                          value={value}
                          onCancel={stopEdit}
                          onSave={(v) => {
                            onSaveCell(row, c.field, v);
                            stopEdit();
                          }}
                        />
                      ) : (
                        (renderCell?.(row, c) ?? (
                          <span className="min-w-0 truncate">
                            {row.pending && c.readOnly ? null : <CellValue column={c} value={value} />}
                          </span>
                        ))
                      )}
                    </td>
                  );
                })}
                {hasActions ? (
                  <td
                    {...cellProps(columns.length)}
                    className="flex shrink-0 items-center gap-1 px-1 outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
                    style={{ width: ACTIONS_WIDTH }}
                  >
                    {selection && !row.pending ? (
                      <Checkbox
                        className="mx-1"
                        tabIndex={-1}
                        aria-label={fillTemplate(messages.databaseSelectRow, { id: row.record.id })}
                        checked={selection.selected.has(row.record.id)}
                        disabled={rowDisabled}
                        onCheckedChange={() => selection.onToggle(row)}
                      />
                    ) : null}
                    {row.pending ? (
                      <>
                        <span className="truncate text-xs font-medium text-foreground">
                          {messages.databaseRowPending}
                        </span>
                        <Button
                          variant="ghost"
                          size="icon"
                          tabIndex={-1}
                          aria-label={messages.databaseSaveRow}
                          onClick={onSaveNew}
                        >
                          <CheckIcon aria-hidden />
                        </Button>
                        <Button
                          variant="ghost"
                          size="icon"
                          tabIndex={-1}
                          aria-label={messages.databaseDiscardRow}
                          onClick={onDiscardNew}
                        >
                          <XIcon aria-hidden />
                        </Button>
                      </>
                    ) : (
                      <Button
                        variant="ghost"
                        size="icon"
                        tabIndex={-1}
                        aria-label={messages.databaseDeleteRecord}
                        disabled={rowDisabled}
                        onClick={() => onDelete?.(row)}
                      >
                        <Trash2Icon aria-hidden />
                      </Button>
                    )}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
      {editing && inDialog && editingRow && editingColumn ? (
        <DialogEditor
          column={editingColumn}
          value={cellOf(editingRow.record, editingColumn.field)}
          onCancel={stopEdit}
          onSave={(v) => {
            onSaveCell(editingRow, editingColumn.field, v);
            stopEdit();
          }}
        />
      ) : null}
    </div>
  );
}
