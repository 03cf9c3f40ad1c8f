"use client";

import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Textarea } from "@/components/ui/textarea";
import { messages } from "@/lib/messages";
import type { TableColumn } from "@/lib/space/table-columns";
import { fillTemplate } from "@/lib/text";
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

export function InlineEditor({ column, value, onSave, onCancel }: EditorProps) {
  const label = fillTemplate(messages.databaseEditCell, { field: column.field });
  const keys = (e: React.KeyboardEvent, read: () => unknown) => {
    e.stopPropagation();
    if (e.key === "Escape") {
      e.preventDefault();
      onCancel();
    } else if (e.key === "Enter") {
      e.preventDefault();
      onSave(read());
    }
  };
  if (column.kind === "select") {
    return (
      <select
        aria-label={label}
        className={inputClass}
        autoFocus
        defaultValue={typeof value === "string" ? value : ""}
        onChange={(e) => onSave(e.target.value === "" ? null : e.target.value)}
        onKeyDown={(e) => keys(e, () => (e.currentTarget.value === "" ? null : e.currentTarget.value))}
        onBlur={onCancel}
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
  const type = column.kind === "number" ? "number" : column.kind === "datetime" ? "datetime-local" : "text";
  const initial =
    column.kind === "datetime"
      ? localInput(value)
      : value === undefined || value === null
        ? ""
        : String(value);
  return (
    <input
      aria-label={label}
      className={inputClass}
      type={type}
      autoFocus
      defaultValue={initial}
      onKeyDown={(e) =>
        keys(e, () => {
          const text = e.currentTarget.value;
          if (text === "") return null;
          if (column.kind === "number") return Number(text);
          if (column.kind === "datetime") return new Date(text).toISOString();
          return text;
        })
      }
      onBlur={onCancel}
    />
  );
}

/** Long text and JSON (lists included) in a dialog; JSON must parse before it is saved. */
export function DialogEditor({ column, value, onSave, onCancel }: EditorProps) {
  const json = column.kind === "json" || column.kind === "multiselect";
  const [text, setText] = useState(() =>
    json ? (value === undefined ? "" : JSON.stringify(value, null, 2)) : String(value ?? ""),
  );
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  const save = () => {
    if (!json) return onSave(text === "" ? null : text);
    if (text.trim() === "") return onSave(null);
    try {
      onSave(JSON.parse(text));
    } catch (e) {
      setError(fillTemplate(messages.databaseInvalidJson, { error: (e as Error).message }));
    }
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onCancel()}>
      <DialogContent aria-describedby={undefined}>
        <DialogHeader>
          <DialogTitle>{fillTemplate(messages.databaseEditCell, { field: column.field })}</DialogTitle>
        </DialogHeader>
        <Textarea
          aria-label={column.field}
          aria-invalid={error !== null}
          aria-describedby={error ? errorId : undefined}
          className={json ? "min-h-40 font-mono text-xs" : "min-h-40"}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setError(null);
          }}
        />
        {error ? (
          <p id={errorId} role="alert" className="text-sm text-destructive">
            {error}
          </p>
        ) : null}
        <DialogFooter>
          <Button variant="outline" onClick={onCancel}>
            {messages.databaseCellCancel}
          </Button>
          <Button onClick={save}>{messages.databaseCellSave}</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
