"use client";

import { ArrowDownIcon, ArrowUpIcon, ChevronDownIcon, Columns3Icon, EyeOffIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { messages } from "@/lib/messages";
import type { TableColumn } from "@/lib/space/table-columns";
import { fillTemplate } from "@/lib/text";
import type { GridSort } from "./use-grid-view";

// The records grid's column menus: each column header's (sort ascending or descending, hide the
// column) and the Columns menu above the grid, which shows a hidden column again. Radix menus:
// arrows, Enter and Escape, focus back on the button when closed.

/** The header text of a column. */
export const columnLabel = (c: TableColumn) =>
  c.field === "createdAt" ? messages.databaseCreatedAt : c.field;

export function ColumnMenu({
  column,
  sort,
  onSort,
  onHide,
}: {
  column: TableColumn;
  sort: GridSort | null;
  onSort: (sort: GridSort) => void;
  onHide: () => void;
}) {
  const sorted = sort?.field === column.field ? sort.direction : null;
  const Icon = sorted === "asc" ? ArrowUpIcon : sorted === "desc" ? ArrowDownIcon : ChevronDownIcon;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="ml-auto size-6 shrink-0"
          aria-label={fillTemplate(messages.databaseColumnMenu, { field: columnLabel(column) })}
        >
          <Icon aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onSelect={() => onSort({ field: column.field, direction: "asc" })}>
          <ArrowUpIcon aria-hidden />
          {messages.databaseSortAscending}
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => onSort({ field: column.field, direction: "desc" })}>
          <ArrowDownIcon aria-hidden />
          {messages.databaseSortDescending}
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={onHide}>
          <EyeOffIcon aria-hidden />
          {messages.databaseHideColumn}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** Every column with a check mark when shown; picking one shows or hides it, the menu stays open. */
export function ColumnsMenu({
  id,
  columns,
  hidden,
  onToggle,
}: {
  id: string;
  columns: TableColumn[];
  hidden: string[];
  onToggle: (field: string, hidden: boolean) => void;
}) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button id={id} variant="outline" size="sm">
          <Columns3Icon aria-hidden />
          {messages.databaseColumns}
          {hidden.length > 0 ? (
            <span className="text-muted-foreground">
              ({columns.length - hidden.length}/{columns.length})
            </span>
          ) : null}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>{messages.databaseColumnsShown}</DropdownMenuLabel>
        {columns.map((c) => (
          <DropdownMenuCheckboxItem
            key={c.field}
            checked={!hidden.includes(c.field)}
            onCheckedChange={(shown) => onToggle(c.field, !shown)}
            onSelect={(e) => e.preventDefault()}
          >
            {columnLabel(c)}
          </DropdownMenuCheckboxItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
