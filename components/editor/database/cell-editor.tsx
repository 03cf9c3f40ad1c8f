"use client";

import { useId, useLayoutEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Textarea } from "@/components/ui/textarea";
import { messages } from "@/lib/messages";
import type { TableColumn } from "@/lib/space/table-columns";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";
import { ChipPicker } from "./chip-picker";
import { isLongText } from "./table-cell";

// The editors of a Database table cell: in the cell for short values (input, select, date and
// time), in a dialog for long text and JSON. Each hands back the new value, or cancels (Escape).

export type EditorProps = {
  column: TableColumn;
  value: unknown;
  onSave: (value: unknown) => void;
  onCancel: () => void;
};

/** Whether the cell edits in a dialog: JSON and lists, and text over 50 characters or with a line break. */
export const editsInDialog = (column: TableColumn, value: unknown) =>
  column.kind === "json" || column.kind === "multiselect" || isLongText(value);

/** The value of a datetime-local input (local time, minutes) for a stored ISO date. */
function localInput(value: unknown): string {
  if (typeof value !== "string") return "";
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return "";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const inputClass =
  "h-full w-full min-w-0 rounded-sm border border-ring bg-background px-2 text-sm text-foreground outline-none";

/**
 * "{n} characters max" by a text editor whose column sets a most length: under the dialog's text,
 * or floating just above the cell's input (above, not below: there is always the header row above
 * a row inside the grid's scroll box, while below the last row it would be cut off).
 */
function MaxLengthHint({ id, max, floating }: { id: string; max: number; floating?: boolean }) {
  const ref = useRef<HTMLSpanElement>(null);
  const [alignRight, setAlignRight] = useState(false);
  // Floating from the cell's left edge, it may run past the grid's scroll box on the right (the
  // cell at the box's edge): then it runs leftwards from the cell's right edge instead.
  useLayoutEffect(() => {
    const box = ref.current?.closest('[role="grid"]')?.parentElement;
    if (!floating || !ref.current || !box) return;
    if (ref.current.getBoundingClientRect().right > box.getBoundingClientRect().right) setAlignRight(true);
  }, [floating]);
  return (
    <span
      ref={ref}
      id={id}
      className={
        floating
          ? cn(
              "absolute bottom-full z-20 mb-0.5 rounded-sm border border-border bg-popover px-1.5 py-0.5 text-xs whitespace-nowrap text-popover-foreground shadow-sm",
              alignRight ? "right-0" : "left-0",
            )
          : "text-xs text-muted-foreground"
      }
    >
      {fillTemplate(messages.databaseMaxLength, { n: max })}
    </span>
  );
}

/**
 * A select's editor. A native select changes its value on an arrow key while closed; that is a
 * move through the options, not a choice, so it is saved on Enter or when the editor loses focus
 * (Escape cancels). A choice made with the pointer in the opened list is saved at once.
 */
function SelectEditor({ column, value, onSave, onCancel }: EditorProps) {
  const label = fillTemplate(messages.databaseEditCell, { field: column.field });
  const finished = useRef(false);
  const byKeys = useRef(false);
  const read = (el: HTMLSelectElement) => (el.value === "" ? null : el.value);
  const initial = typeof value === "string" ? value : "";
  const save = (el: HTMLSelectElement) => {
    if (finished.current) return;
    finished.current = true;
    if ((read(el) ?? "") === initial) onCancel();
    else onSave(read(el));
  };
  return (
    <select
      aria-label={label}
      className={inputClass}
      autoFocus
      defaultValue={initial}
      onChange={(e) => {
        if (!byKeys.current) save(e.currentTarget);
      }}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === "Escape") {
          e.preventDefault();
          finished.current = true;
          onCancel();
        } else if (e.key === "Enter") {
          e.preventDefault();
          save(e.currentTarget);
        } else {
          byKeys.current = true;
        }
      }}
      onBlur={(e) => save(e.currentTarget)}
    >
      <option value="">—</option>
      {column.options?.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

export function InlineEditor(props: EditorProps) {
  const { column, value, onSave, onCancel } = props;
  const hintId = useId();
  if (column.kind === "select") return <SelectEditor {...props} />;
  const label = fillTemplate(messages.databaseEditCell, { field: column.field });
  const type = column.kind === "number" ? "number" : column.kind === "datetime" ? "datetime-local" : "text";
  const initial =
    column.kind === "datetime"
      ? localInput(value)
      : value === undefined || value === null
        ? ""
        : String(value);
  const max = type === "text" ? column.maxLength : null;
  return (
    <>
      <input
        aria-label={label}
        aria-describedby={max !== null ? hintId : undefined}
        className={inputClass}
        type={type}
        autoFocus
        maxLength={max ?? undefined}
        defaultValue={initial}
        onKeyDown={(e) => {
          e.stopPropagation();
          if (e.key === "Escape") {
            e.preventDefault();
            onCancel();
          } else if (e.key === "Enter") {
            e.preventDefault();
            const text = e.currentTarget.value;
            if (text === "") onSave(null);
            else if (column.kind === "number") onSave(Number(text));
            else if (column.kind === "datetime") onSave(new Date(text).toISOString());
            else onSave(text);
          }
        }}
        onBlur={onCancel}
      />
      {max !== null ? <MaxLengthHint id={hintId} max={max} floating /> : null}
    </>
  );
}

/** A multiselect's value as a list of strings; null when it holds something else (edited as JSON). */
function listOf(value: unknown): string[] | null {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) && value.every((v) => typeof v === "string") ? value : null;
}

/** Long text and JSON in a dialog; JSON must parse before it is saved. A multiselect picks chips. */
export function DialogEditor(props: EditorProps) {
  const list = props.column.kind === "multiselect" ? listOf(props.value) : null;
  return list ? <ChipsDialog {...props} initial={list} /> : <TextDialog {...props} />;
}

function EditDialog({
  column,
  onCancel,
  onSave,
  children,
}: Pick<EditorProps, "column" | "onCancel"> & { onSave: () => void; children: React.ReactNode }) {
  return (
    <Dialog open onOpenChange={(open) => !open && onCancel()}>
      <DialogContent aria-describedby={undefined}>
        <DialogHeader>
          <DialogTitle>{fillTemplate(messages.databaseEditCell, { field: column.field })}</DialogTitle>
        </DialogHeader>
        {children}
        <DialogFooter>
          <Button variant="outline" onClick={onCancel}>
            {messages.databaseCellCancel}
          </Button>
          <Button onClick={onSave}>{messages.databaseCellSave}</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function ChipsDialog({ column, onSave, onCancel, initial }: EditorProps & { initial: string[] }) {
  const [picked, setPicked] = useState(initial);
  return (
    <EditDialog column={column} onCancel={onCancel} onSave={() => onSave(picked.length ? picked : null)}>
      <ChipPicker
        label={fillTemplate(messages.databaseChipPickerLabel, { field: column.field })}
        options={column.options}
        value={picked}
        onChange={setPicked}
      />
    </EditDialog>
  );
}

function TextDialog({ column, value, onSave, onCancel }: EditorProps) {
  const json = column.kind === "json" || column.kind === "multiselect";
  const [text, setText] = useState(() =>
    json ? (value === undefined ? "" : JSON.stringify(value, null, 2)) : String(value ?? ""),
  );
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  const hintId = useId();
  const max = json ? null : column.maxLength;
  const save = () => {
    if (!json) return onSave(text === "" ? null : text);
    if (text.trim() === "") return onSave(null);
    try {
      onSave(JSON.parse(text));
    } catch (e) {
      setError(fillTemplate(messages.databaseInvalidJson, { error: (e as Error).message }));
    }
  };
  const describedBy = [error ? errorId : null, max !== null ? hintId : null].filter(Boolean).join(" ");
  return (
    <EditDialog column={column} onCancel={onCancel} onSave={save}>
      <Textarea
        aria-label={column.field}
        aria-invalid={error !== null}
        aria-describedby={describedBy || undefined}
        className={json ? "min-h-40 font-mono text-xs" : "min-h-40"}
        maxLength={max ?? undefined}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setError(null);
        }}
      />
      {max !== null ? <MaxLengthHint id={hintId} max={max} /> : null}
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </EditDialog>
  );
}
