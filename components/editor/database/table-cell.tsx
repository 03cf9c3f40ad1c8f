import { CheckIcon, MinusIcon } from "lucide-react";
import { messages } from "@/lib/messages";
import type { SelectOption, TableColumn } from "@/lib/space/table-columns";

// How a value shows in a cell of the Database table, by the column's kind. Display only: editing is
// in cell-editor.tsx. Inline (the cell is a line of text; its boxes are aligned to the middle).

/** Long text edits in a dialog rather than in the cell: over 50 characters, or with a line break. */
export const LONG_TEXT = 50;
export const isLongText = (value: unknown) =>
  typeof value === "string" && (value.length > LONG_TEXT || value.includes("\n"));

// Made once: toLocaleString with options builds a formatter per call, and a grid scrolled fast
// formats dozens of dates a frame.
const DATE_TIME = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  hour12: true,
});

/** Date and time in the 12-hour format ("Nov 27, 2026, 2:24 PM"); the text itself when it is no date. */
export function dateTimeText(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return DATE_TIME.format(date);
}

const isImageUrl = (v: string) => /^https:\/\//i.test(v) || /^data:image\//i.test(v);

function Chip({ value, options }: { value: string; options: SelectOption[] | null }) {
  const option = options?.find((o) => o.value === value);
  return (
    <span
      className="inline-block max-w-full truncate rounded px-1.5 py-0.5 align-middle text-xs text-neutral-900"
      style={{ backgroundColor: option?.backgroundColor ?? "#f1f5f9" }}
    >
      {option?.label ?? value}
    </span>
  );
}

const none = <span className="text-muted-foreground">—</span>;

export function CellValue({ column, value }: { column: TableColumn; value: unknown }) {
  if (value === undefined || value === null || value === "") return none;
  switch (column.kind) {
    case "boolean":
      return (
        <span className="inline-flex items-center gap-1 align-middle">
          {value === true ? (
            <CheckIcon aria-hidden className="size-4" />
          ) : (
            <MinusIcon aria-hidden className="size-4" />
          )}
          {value === true ? messages.databaseRequiredYes : messages.databaseRequiredNo}
        </span>
      );
    case "datetime":
      return typeof value === "string" ? (
        <time dateTime={value}>{dateTimeText(value)}</time>
      ) : (
        JSON.stringify(value)
      );
    case "select":
      return <Chip value={String(value)} options={column.options} />;
    case "multiselect":
      return Array.isArray(value) ? (
        <span className="inline-flex max-w-full gap-1 overflow-hidden align-middle">
          {value.map((v, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a list may repeat a value
            <Chip key={i} value={String(v)} options={column.options} />
          ))}
        </span>
      ) : (
        JSON.stringify(value)
      );
    case "image":
      if (typeof value === "string" && isImageUrl(value)) {
        return (
          // biome-ignore lint/performance/noImgElement: a thumbnail of any URL the app stored, not a page asset
          <img
            src={value}
            alt={column.field}
            className="inline-block size-7 rounded object-cover align-middle"
            loading="lazy"
          />
        );
      }
      return <>{String(value)}</>;
    case "json":
      return <span className="font-mono text-xs">{JSON.stringify(value)}</span>;
    default:
      return <>{typeof value === "object" ? JSON.stringify(value) : String(value)}</>;
  }
}
