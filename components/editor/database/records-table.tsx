"use client";

import {
  type ColumnDef,
  columnResizingFeature,
  columnSizingFeature,
  tableFeatures,
  useTable,
} from "@tanstack/react-table";
import { defaultRangeExtractor, type Range, useVirtualizer } from "@tanstack/react-virtual";
import { CheckIcon, Trash2Icon, XIcon } from "lucide-react";
import { memo, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { buttonVariants } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import {
  TABLE_COLUMN_RESIZE_STEP,
  TABLE_LOAD_AHEAD_ROWS,
  TABLE_ROW_HEIGHT,
  TABLE_VIEW_HEIGHT,
} from "@/lib/constants";
import { messages } from "@/lib/messages";
import type { EntityRecordView } from "@/lib/space/entity-records";
import type { TableColumn } from "@/lib/space/table-columns";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";
import { DialogEditor, editsInDialog, InlineEditor } from "./cell-editor";
import { ColumnMenu, columnLabel } from "./column-menu";
import { CellValue } from "./table-cell";
import type { GridSort } from "./use-grid-view";

// The Database panel's records as a grid: a virtual list (only the rows in view are in the page),
// column widths kept and resized by the table model (react-table),
// typed cells, resizable columns (by mouse, or by the arrows on a column's separator), each header
// with its menu (sort, hide), and the keyboard of a spreadsheet: the rows are one tab stop, the
// arrows move the active cell, Enter (or a double-click) edits it, Escape cancels. The next page
// loads as the list nears its end, scrolled or moved down by the keyboard; a row says it is loading.
// Rows may be ticked (a box per row in the actions column, one for them all) for a bulk action.

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

/** Rows drawn beyond the view, each side. */
const OVERSCAN = 4;

/** Rows PageUp and PageDown move: a screen of the grid, less the header. */
const PAGE_ROWS = Math.floor(TABLE_VIEW_HEIGHT / TABLE_ROW_HEIGHT) - 1;

export function RecordsTable({
  label,
  columns,
  rows,
  total,
  hasMore,
  loadingMore,
  onNearEnd,
  sort,
  onSort,
  onHide,
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
  /** The rows there are, loaded or not (the list's count; default: the rows given). */
  total?: number;
  /** Whether a next page is there to load (without it: the rows given are all the grid loads). */
  hasMore?: boolean;
  loadingMore?: boolean;
  /** The list nears the end of its loaded rows: load the next page (called again until it has). */
  onNearEnd?: () => void;
  sort?: GridSort | null;
  /** Without it the headers have no menus (a list the server does not sort, such as the users). */
  onSort?: (sort: GridSort) => void;
  onHide?: (field: string) => void;
  onSaveCell: (row: TableRow, field: string, value: unknown) => void;
  /** Without it the grid has no actions column (rows are neither deleted nor added). */
  onDelete?: (row: TableRow) => void;
  onSaveNew?: () => void;
  onDiscardNew?: () => void;
  selection?: RowSelection;
  /** Rows shown but not editable (being deleted, say). */
  disabled?: ReadonlySet<string>;
  /**
   * A cell the caller draws itself (undefined: the typed cell). A new function re-renders every
   * row in view, so a caller with many rows keeps it stable.
   */
  renderCell?: (row: TableRow, column: TableColumn) => React.ReactNode | undefined;
}) {
  const more = hasMore ?? false;
  const loadMore = onNearEnd ?? noop;
  const scrollRef = useRef<HTMLDivElement>(null);
  const slots = useRef(new Map<string, number>());
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
  // The row of the active cell stays in the page when scrolled out of view: the focus stays where
  // it was (a row scrolled away is not unmounted under it, nor its element given to another record).
  const activeRow = Math.min(active.row, Math.max(rows.length - 1, 0));
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      if (activeRow >= range.count || indexes.includes(activeRow)) return indexes;
      return activeRow < indexes[0]! ? [activeRow, ...indexes] : [...indexes, activeRow];
    },
    [activeRow],
  );
  // The loading row follows the loaded ones while there are more.
  const virtualizer = useVirtualizer({
    rangeExtractor,
    count: rows.length + (more ? 1 : 0),
    getScrollElement: () => scrollRef.current,
    estimateSize: () => TABLE_ROW_HEIGHT,
    // Rows drawn beyond the view, each side: enough for a fast wheel (a few rows a frame), and
    // few, since a jump (a drag of the scrollbar) draws every row anew (bench/space-grid-scroll.ts).
    overscan: OVERSCAN,
  });
  const hasActions = onDelete !== undefined;
  const colCount = columns.length + (hasActions ? 1 : 0);
  const isDisabled = (row: TableRow) => disabled?.has(row.record.id) ?? false;
  const widthOf = (c: TableColumn) => table.getColumn(c.field)?.getSize() ?? c.width;
  const totalWidth = columns.reduce((sum, c) => sum + widthOf(c), 0) + (hasActions ? ACTIONS_WIDTH : 0);
  // The active cell stays within the grid as rows come and go.
  const at: Cell = {
    row: Math.min(active.row, Math.max(rows.length - 1, 0)),
    col: Math.min(active.col, colCount - 1),
  };

  // Near the end of the loaded rows (scrolled there, or the keyboard moved there): the next page.
  // (The range's, not the last row in the page: that may be the active row, kept there.)
  const lastInView = (virtualizer.range?.endIndex ?? 0) + OVERSCAN;
  useEffect(() => {
    if (more && !loadingMore && lastInView >= rows.length - TABLE_LOAD_AHEAD_ROWS) loadMore();
  }, [more, loadingMore, lastInView, rows.length, loadMore]);

  // A move down past the loaded rows waits for the next page, then goes on to its first row.
  const waitingDown = useRef<Cell | null>(null);
  useEffect(() => {
    const target = waitingDown.current;
    if (!target) return;
    if (target.row < rows.length) {
      waitingDown.current = null;
      focusCell(target);
    } else if (!more) waitingDown.current = null;
  });

  // A new sort shows its first rows from the top.
  const sortKey = sort ? `${sort.direction}:${sort.field}` : "";
  useEffect(() => {
    if (sortKey !== undefined) scrollRef.current?.scrollTo({ top: 0 });
  }, [sortKey]);

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
    // The header's menus, box and separators have keys of their own.
    const target = e.target as HTMLElement;
    const cell = target.closest("[data-cell]");
    if (!cell) return;
    // On a control in a cell (a button, a box), the arrows still move; Enter and Space are its own.
    const inControl = cell !== target;
    if (inControl && e.key === "Escape") {
      e.preventDefault();
      focusCell(at);
      return;
    }
    if ((e.key === "ArrowDown" || e.key === "PageDown") && more && at.row >= rows.length - 1) {
      e.preventDefault();
      waitingDown.current = { row: rows.length, col: at.col };
      loadMore();
      return;
    }
    const moves: Record<string, Cell> = {
      ArrowUp: { row: Math.max(at.row - 1, 0), col: at.col },
      ArrowDown: { row: Math.min(at.row + 1, rows.length - 1), col: at.col },
      PageUp: { row: Math.max(at.row - PAGE_ROWS, 0), col: at.col },
      PageDown: { row: Math.min(at.row + PAGE_ROWS, rows.length - 1), col: at.col },
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
    } else if (e.key === " " && selection && hasActions && at.col === columns.length) {
      // Space ticks the row's box, as it would the box itself.
      e.preventDefault();
      const row = rows[at.row];
      if (row && !row.pending && !isDisabled(row)) selection.onToggle(row);
    }
  };

  // What a row may do, stable across renders (a row re-renders only when its own props change:
  // scrolling renders the rows that come into view, not every row in view).
  const latest = useRef({ stopEdit, onSaveCell, onDelete, onSaveNew, onDiscardNew, selection });
  latest.current = { stopEdit, onSaveCell, onDelete, onSaveNew, onDiscardNew, selection };
  const actions = useMemo<RowActions>(
    () => ({
      save: (row, field, value) => {
        latest.current.onSaveCell(row, field, value);
        latest.current.stopEdit();
      },
      cancel: () => latest.current.stopEdit(),
      remove: (row) => latest.current.onDelete?.(row),
      saveNew: () => latest.current.onSaveNew?.(),
      discardNew: () => latest.current.onDiscardNew?.(),
      toggle: (row) => latest.current.selection?.onToggle(row),
    }),
    [],
  );
  const widthList = columns.map(widthOf);
  const widthKey = widthList.join(",");
  // biome-ignore lint/correctness/useExhaustiveDependencies: the same widths keep the same array
  const widths = useMemo(() => widthList, [widthKey]);

  // The header's, as stable: scrolling does not render the header again.
  const latestHeader = useRef({ onSort, onHide, table, headers, selection });
  latestHeader.current = { onSort, onHide, table, headers, selection };
  const headerActions = useMemo<HeaderActions>(
    () => ({
      sort: (sort) => latestHeader.current.onSort?.(sort),
      hide: (field) => latestHeader.current.onHide?.(field),
      toggleAll: () => latestHeader.current.selection?.onToggleAll(),
      resize: (field, width) =>
        latestHeader.current.table.setColumnSizing((old) => ({ ...old, [field]: width })),
      drag: (index, event) => latestHeader.current.headers[index]?.getResizeHandler()(event),
    }),
    [],
  );

  // The header's box: ticked, partly (some rows) or not; none to tick while only a pending row shows.
  let selectable = 0;
  let ticked = 0;
  for (const r of rows) {
    if (r.pending) continue;
    selectable++;
    if (selection?.selected.has(r.record.id)) ticked++;
  }
  const allChecked: CheckState =
    ticked > 0 && ticked === selectable ? true : ticked > 0 ? "indeterminate" : false;

  // Each row in the page keeps its element while it stays; a row coming into view takes the element
  // of one that left (the same key), so React updates its text rather than making the row anew.
  const items = virtualizer.getVirtualItems();
  const slotOf = slotKeys(
    slots,
    items.map((item) => rows[item.index]?.record.id ?? "loading"),
  );

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
        aria-rowcount={Math.max(total ?? 0, rows.length) + 1}
        // The rows loaded so far (the benchmark checks each frame that those in view are drawn).
        data-loaded-rows={rows.length}
        aria-colcount={colCount}
        aria-multiselectable={selection ? true : undefined}
        onKeyDown={onKeyDown}
        className="grid"
        style={{ width: totalWidth }}
      >
        <GridHeader
          columns={columns}
          widths={widths}
          totalWidth={totalWidth}
          colCount={colCount}
          sort={sort ?? null}
          menus={onSort !== undefined}
          hasActions={hasActions}
          // Values, not an object: the header renders again only when they change.
          selectAll={selection ? allChecked : null}
          selectAllDisabled={selectable === 0}
          actions={headerActions}
        />
        <tbody
          className="relative grid"
          style={{ height: virtualizer.getTotalSize(), width: totalWidth }}
          // One handler for every cell (a cell's own handlers would be two functions a cell, made
          // again for each row scrolled into view).
          onFocus={(e) => {
            const cell = cellAt(e.target);
            if (cell) setActive(cell);
          }}
          onDoubleClick={(e) => {
            // A double click on a cell's own control (a box, a button) is that control's.
            const cell = cellAt(e.target);
            if (cell && !(e.target as Element).closest("button, input")) startEdit(cell);
          }}
        >
          {items.map((item) => {
            const r = item.index;
            const row = rows[r];
            if (!row) {
              return (
                <tr
                  key={slotOf.get("loading")}
                  aria-rowindex={r + 2}
                  data-state="loading"
                  className="absolute left-0 flex border-t border-border"
                  style={{
                    height: TABLE_ROW_HEIGHT,
                    transform: `translateY(${item.start}px)`,
                    width: totalWidth,
                  }}
                >
                  <td
                    aria-colindex={1}
                    aria-colspan={colCount}
                    className="sticky left-0 flex items-center px-2 text-muted-foreground"
                  >
                    {messages.databaseLoadingMore}
                  </td>
                </tr>
              );
            }
            return (
              <GridRow
                key={slotOf.get(row.record.id)}
                record={row.record}
                pending={row.pending}
                index={r}
                start={item.start}
                columns={columns}
                widths={widths}
                totalWidth={totalWidth}
                activeCol={at.row === r ? at.col : -1}
                editingCol={editing?.row === r && !inDialog ? editing.col : -1}
                hasActions={hasActions}
                selected={selection && !row.pending ? selection.selected.has(row.record.id) : undefined}
                disabled={isDisabled(row)}
                renderCell={renderCell}
                actions={actions}
              />
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

/**
 * A column's right edge: dragged with the mouse or a finger, or focused and moved with the arrows
 * (a step at a time, within the column's least and greatest width).
 */
function ResizeHandle({
  column,
  width,
  onResize,
  onPointerResize,
}: {
  column: TableColumn;
  width: number;
  onResize: (width: number) => void;
  onPointerResize?: (event: unknown) => void;
}) {
  // The width each key gives (Home and End: the least and the greatest).
  const clamp = (w: number) => Math.min(Math.max(w, column.minWidth), column.maxWidth);
  const widthFor = (key: string): number | null =>
    key === "ArrowLeft"
      ? clamp(width - TABLE_COLUMN_RESIZE_STEP)
      : key === "ArrowRight"
        ? clamp(width + TABLE_COLUMN_RESIZE_STEP)
        : key === "Home"
          ? column.minWidth
          : key === "End"
            ? column.maxWidth
            : null;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a focusable separator that resizes (an <hr> cannot be focused or hold a value)
    <div
      role="separator"
      tabIndex={0}
      aria-orientation="vertical"
      aria-label={fillTemplate(messages.databaseResizeColumn, { field: columnLabel(column) })}
      aria-valuenow={width}
      aria-valuemin={column.minWidth}
      aria-valuemax={column.maxWidth}
      onMouseDown={onPointerResize}
      onTouchStart={onPointerResize}
      onKeyDown={(e) => {
        const next = widthFor(e.key);
        if (next === null) return;
        e.preventDefault();
        e.stopPropagation();
        onResize(next);
      }}
      className="absolute top-0 right-0 h-full w-1.5 cursor-col-resize outline-none hover:bg-ring focus-visible:bg-ring"
    />
  );
}

type RowActions = {
  save: (row: TableRow, field: string, value: unknown) => void;
  cancel: () => void;
  remove: (row: TableRow) => void;
  saveNew: () => void;
  discardNew: () => void;
  toggle: (row: TableRow) => void;
};

type CheckState = boolean | "indeterminate";

// A row's classes, made once (not merged again for every cell of every row drawn).
const ROW_CLASS = "absolute left-0 flex border-t border-border";
const CELL_CLASS =
  "flex shrink-0 items-center overflow-hidden px-2 whitespace-nowrap outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset";
const READ_ONLY_CELL_CLASS = `${CELL_CLASS} text-muted-foreground`;
// A typed value's cell: a line of its own height (the value centred in it, cut short with an
// ellipsis), no element between the cell and the value.
const TEXT_CELL_CLASS =
  "block shrink-0 truncate px-2 leading-[39px] outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset";
const READ_ONLY_TEXT_CELL_CLASS = `${TEXT_CELL_CLASS} text-muted-foreground`;
const EDITING_CELL_CLASS = cn(CELL_CLASS, "relative overflow-visible px-0.5 py-0.5");
const ACTIONS_CELL_CLASS =
  "flex shrink-0 items-center gap-1 px-1 outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset";
const ICON_BUTTON_CLASS = buttonVariants({ variant: "ghost", size: "icon" });
const ROW_BOX_CLASS = "mx-1 size-4 shrink-0 cursor-pointer accent-primary disabled:cursor-not-allowed";
// Made once: the same element each time, which React leaves as it is.
const DELETE_ICON = <Trash2Icon aria-hidden />;
const SAVE_ICON = <CheckIcon aria-hidden />;
const DISCARD_ICON = <XIcon aria-hidden />;

/** The cell an event happened in (a cell, or a control in one), from its data-cell "row:col". */
function cellAt(target: EventTarget): Cell | null {
  const cell = target instanceof Element ? target.closest<HTMLElement>("[data-cell]") : null;
  const [row, col] = (cell?.dataset.cell ?? "").split(":").map(Number);
  return row === undefined || col === undefined || Number.isNaN(row) || Number.isNaN(col)
    ? null
    : { row, col };
}

/**
 * A key per row in the page: a row keeps its own while it stays in the page; a row coming in takes
 * one a row going out left (the least free), so that the elements are reused rather than made anew.
 */
function slotKeys(slots: React.RefObject<Map<string, number>>, ids: string[]): Map<string, number> {
  const next = new Map<string, number>();
  const used = new Set<number>();
  for (const id of ids) {
    const slot = slots.current.get(id);
    if (slot !== undefined && !used.has(slot)) {
      next.set(id, slot);
      used.add(slot);
    }
  }
  let free = 0;
  for (const id of ids) {
    if (next.has(id)) continue;
    while (used.has(free)) free++;
    next.set(id, free);
    used.add(free);
  }
  slots.current = next;
  return next;
}

const noop = () => {};

/**
 * One record's row: its typed cells, then its actions (its box, delete; save or discard while
 * pending). Memoized: every prop is a value or stable, so a row renders again only when it changes.
 */
const GridRow = memo(function GridRow({
  record,
  pending,
  index: r,
  start,
  columns,
  widths,
  totalWidth,
  activeCol,
  editingCol,
  hasActions,
  selected,
  disabled,
  renderCell,
  actions,
}: {
  record: EntityRecordView;
  pending: boolean;
  index: number;
  start: number;
  columns: TableColumn[];
  widths: number[];
  totalWidth: number;
  /** The active cell's column when it is in this row (the row's one tab stop), else -1. */
  activeCol: number;
  /** The column edited in place in this row, else -1. */
  editingCol: number;
  hasActions: boolean;
  /** Whether the row is ticked (undefined: the row has no box). */
  selected: boolean | undefined;
  disabled: boolean;
  renderCell: ((row: TableRow, column: TableColumn) => React.ReactNode | undefined) | undefined;
  actions: RowActions;
}) {
  const row: TableRow = { record, pending };
  const editing = editingCol >= 0;
  const cellProps = (col: number) => ({
    "aria-colindex": col + 1,
    "data-cell": `${r}:${col}`,
    tabIndex: activeCol === col ? 0 : -1,
  });
  return (
    <tr
      aria-rowindex={r + 2}
      aria-disabled={disabled || undefined}
      aria-selected={selected}
      data-state={pending ? "pending" : undefined}
      className={
        ROW_CLASS +
        (pending ? " bg-accent/40" : "") +
        (disabled ? " opacity-60" : "") +
        (editing ? " z-20" : "")
      }
      // Contained: a row's layout and paint are its own, so the rows a scroll adds leave the others
      // be; not while a cell is edited (its editor's hints and lists reach outside the row).
      style={{
        height: TABLE_ROW_HEIGHT,
        transform: `translateY(${start}px)`,
        width: totalWidth,
        contain: editing ? undefined : "strict",
      }}
    >
      {columns.map((c, col) => {
        const value = cellOf(record, c.field);
        const isEditing = editingCol === col;
        const custom = isEditing ? undefined : renderCell?.(row, c);
        return (
          // biome-ignore lint/a11y/useAriaPropsSupportedByRole: a td of a grid is a gridcell, which may be read-only
          <td
            key={c.field}
            {...cellProps(col)}
            aria-readonly={c.readOnly || undefined}
            className={
              isEditing
                ? EDITING_CELL_CLASS
                : custom !== undefined
                  ? c.readOnly
                    ? READ_ONLY_CELL_CLASS
                    : CELL_CLASS
                  : c.readOnly
                    ? READ_ONLY_TEXT_CELL_CLASS
                    : TEXT_CELL_CLASS
            }
            style={{ width: widths[col] }}
          >
            {isEditing ? (
              <InlineEditor
                column={c}
                value={value}
                onCancel={actions.cancel}
                onSave={(v) => actions.save(row, c.field, v)}
              />
            ) : custom !== undefined ? (
              custom
            ) : pending && c.readOnly ? null : (
              <CellValue column={c} value={value} />
            )}
          </td>
        );
      })}
      {hasActions ? (
        <td {...cellProps(columns.length)} className={ACTIONS_CELL_CLASS} style={{ width: ACTIONS_WIDTH }}>
          {selected !== undefined ? (
            // A plain box (a row's controls are made for every row scrolled into view: the
            // fewer the elements and hooks, the sooner a frame is drawn).
            <input
              type="checkbox"
              className={ROW_BOX_CLASS}
              tabIndex={-1}
              aria-label={fillTemplate(messages.databaseSelectRow, { id: record.id })}
              checked={selected}
              disabled={disabled}
              onChange={() => actions.toggle(row)}
            />
          ) : null}
          {pending ? (
            <>
              <span className="truncate text-xs font-medium text-foreground">
                {messages.databaseRowPending}
              </span>
              <button
                type="button"
                className={ICON_BUTTON_CLASS}
                tabIndex={-1}
                aria-label={messages.databaseSaveRow}
                onClick={actions.saveNew}
              >
                {SAVE_ICON}
              </button>
              <button
                type="button"
                className={ICON_BUTTON_CLASS}
                tabIndex={-1}
                aria-label={messages.databaseDiscardRow}
                onClick={actions.discardNew}
              >
                {DISCARD_ICON}
              </button>
            </>
          ) : (
            <button
              type="button"
              className={ICON_BUTTON_CLASS}
              tabIndex={-1}
              aria-label={messages.databaseDeleteRecord}
              disabled={disabled}
              onClick={() => actions.remove(row)}
            >
              {DELETE_ICON}
            </button>
          )}
        </td>
      ) : null}
    </tr>
  );
});

type HeaderActions = {
  sort: (sort: GridSort) => void;
  hide: (field: string) => void;
  toggleAll: () => void;
  resize: (field: string, width: number) => void;
  /** A drag (mouse or touch) on the separator of the column at this index. */
  drag: (index: number, event: unknown) => void;
};

/** The header row: each column's name, menu and separator, then the actions column (its box). */
const GridHeader = memo(function GridHeader({
  columns,
  widths,
  totalWidth,
  colCount,
  sort,
  menus,
  hasActions,
  selectAll,
  selectAllDisabled,
  actions,
}: {
  columns: TableColumn[];
  widths: number[];
  totalWidth: number;
  colCount: number;
  sort: GridSort | null;
  /** Whether each column has its menu (sort, hide). */
  menus: boolean;
  hasActions: boolean;
  /** The box that ticks every row: its state (null: rows are not ticked). */
  selectAll: CheckState | null;
  selectAllDisabled: boolean;
  actions: HeaderActions;
}) {
  return (
    <thead className="sticky top-0 z-10 grid" style={{ width: totalWidth }}>
      <tr
        aria-rowindex={1}
        className="flex bg-muted text-left text-xs text-foreground"
        style={{ height: TABLE_ROW_HEIGHT }}
      >
        {columns.map((c, i) => {
          const sorted = sort?.field === c.field ? sort.direction : null;
          return (
            <th
              key={c.field}
              scope="col"
              aria-colindex={i + 1}
              aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}
              className="relative flex shrink-0 items-center gap-1 pr-2.5 pl-2 font-medium"
              style={{ width: widths[i] }}
            >
              <span className="truncate">{columnLabel(c)}</span>
              {menus ? (
                <ColumnMenu
                  column={c}
                  sort={sort}
                  onSort={actions.sort}
                  onHide={() => actions.hide(c.field)}
                />
              ) : null}
              <ResizeHandle
                column={c}
                width={widths[i]!}
                onResize={(width) => actions.resize(c.field, width)}
                onPointerResize={(event) => actions.drag(i, event)}
              />
            </th>
          );
        })}
        {hasActions ? (
          <th
            scope="col"
            aria-colindex={colCount}
            className="flex shrink-0 items-center gap-2 px-2"
            style={{ width: ACTIONS_WIDTH }}
          >
            {selectAll !== null ? (
              <Checkbox
                aria-label={messages.databaseSelectAll}
                checked={selectAll}
                disabled={selectAllDisabled}
                onCheckedChange={actions.toggleAll}
              />
            ) : null}
            <span className="sr-only">{messages.databaseRowActions}</span>
          </th>
        ) : null}
      </tr>
    </thead>
  );
});
