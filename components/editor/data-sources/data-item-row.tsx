"use client";

import {
  ExternalLinkIcon,
  FileSpreadsheetIcon,
  FileTextIcon,
  GlobeIcon,
  type LucideIcon,
  PencilIcon,
  RefreshCwIcon,
  ReplaceIcon,
  Trash2Icon,
  TypeIcon,
} from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import {
  DropdownMenu,
  DropdownMenuActionsTrigger,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
} from "@/components/ui/dropdown-menu";
import { Input } from "@/components/ui/input";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import type { ContextItemView } from "./data-sources-api";
import {
  canSyncAgain,
  formatDate,
  replaceKind,
  showsReason,
  sizeLabel,
  sourceNote,
  typeLabel,
} from "./item-format";
import { StatusBadge } from "./status-badge";

function iconOf(item: ContextItemView): LucideIcon {
  if (item.source === "web scraper") return GlobeIcon;
  if (item.type === "txt") return TypeIcon;
  if (item.type === "csv" || item.type === "google sheet" || item.type === "notion database")
    return FileSpreadsheetIcon;
  return FileTextIcon;
}

export type DataItemRowProps = {
  item: ContextItemView;
  /** An action on this item is under way: its actions wait (the menu still opens, keeping the focus). */
  busy: boolean;
  /** Saves a new name; resolves false when it failed (the row keeps the old one). */
  onRename: (name: string) => Promise<boolean>;
  onDelete: () => void;
  onReplace: () => void;
  onSync: () => void;
};

/**
 * One data source: its name (renamed in place: Enter saves, Escape cancels), type, source, size,
 * dates, live status and, for Error and Usage limit reached, the reason; its actions in a menu.
 */
export function DataItemRow({ item, busy, onRename, onDelete, onReplace, onSync }: DataItemRowProps) {
  const ids = useId();
  const [renaming, setRenaming] = useState(false);
  const [draft, setDraft] = useState(item.name);
  const inputRef = useRef<HTMLInputElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  // Escape and Enter end the edit themselves; the blur that follows must not save again.
  const settled = useRef(false);
  // Chosen from the menu: the menu gives the focus to the field, not back to its trigger.
  const renameChosen = useRef(false);

  // The menu's focus trap holds the focus until it has closed: the field takes it then (below,
  // in onCloseAutoFocus), or on the next frame if the menu was already gone.
  useEffect(() => {
    if (!renaming) return;
    const frame = requestAnimationFrame(() => {
      if (document.activeElement !== inputRef.current && !renameChosen.current) {
        inputRef.current?.focus();
        inputRef.current?.select();
      }
    });
    return () => cancelAnimationFrame(frame);
  }, [renaming]);

  const startRename = () => {
    settled.current = false;
    renameChosen.current = true;
    setDraft(item.name);
    setRenaming(true);
  };

  const finishRename = async (save: boolean) => {
    if (settled.current) return;
    settled.current = true;
    const name = draft.trim();
    setRenaming(false);
    // Focus goes back to the row's actions, where the builder was.
    requestAnimationFrame(() => triggerRef.current?.focus());
    if (save && name && name !== item.name) await onRename(name);
  };

  const Icon = iconOf(item);
  const size = sizeLabel(item);
  const source = sourceNote(item);
  const added = formatDate(item.createdAt);
  const synced = formatDate(item.lastSyncedAt);
  const reason = showsReason(item.status) && item.error ? item.error : null;
  const hintId = `${ids}-hint`;
  const replaceable = replaceKind(item) !== null;
  const syncable = canSyncAgain(item.source);

  return (
    <li className="grid gap-2 rounded-lg border border-border p-3" data-item-id={item.id}>
      <div className="flex items-start gap-3">
        <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
        <div className="grid min-w-0 flex-1 gap-1">
          {renaming ? (
            <div className="grid gap-1">
              <Input
                ref={inputRef}
                value={draft}
                maxLength={200}
                aria-label={fillTemplate(messages.dataSourceRenameLabel, { name: item.name })}
                aria-describedby={hintId}
                className="h-8"
                onChange={(e) => setDraft(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === "Enter") {
                    e.preventDefault();
                    void finishRename(true);
                  } else if (e.key === "Escape") {
                    e.preventDefault();
                    e.stopPropagation();
                    void finishRename(false);
                  }
                }}
                onBlur={() => void finishRename(true)}
              />
              <p id={hintId} className="text-xs text-muted-foreground">
                {messages.dataSourceRenameHint}
              </p>
            </div>
          ) : (
            <div className="flex min-w-0 items-center gap-1.5">
              <p className="truncate text-sm font-medium" title={item.name}>
                {item.name}
              </p>
              {item.externalFileUrl ? (
                <a
                  href={item.externalFileUrl}
                  target="_blank"
                  rel="noreferrer noopener"
                  aria-label={fillTemplate(messages.dataSourceOpenSource, { name: item.name })}
                  className="shrink-0 rounded-sm text-muted-foreground hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <ExternalLinkIcon aria-hidden="true" className="size-3.5" />
                </a>
              ) : null}
            </div>
          )}
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <StatusBadge status={item.status} />
            <p className="text-xs text-muted-foreground">
              {[typeLabel(item.type), source, size].filter(Boolean).join(" · ")}
            </p>
          </div>
          <p className="flex flex-wrap gap-x-3 text-xs text-muted-foreground">
            {added ? <span>{fillTemplate(messages.dataSourceAdded, { date: added })}</span> : null}
            {synced ? <span>{fillTemplate(messages.dataSourceLastSynced, { date: synced })}</span> : null}
          </p>
        </div>
        <DropdownMenu>
          <DropdownMenuActionsTrigger
            ref={triggerRef}
            className="-mt-1 -mr-1"
            disabled={renaming}
            aria-label={fillTemplate(messages.dataSourceActions, { name: item.name })}
          />
          <DropdownMenuContent
            align="end"
            // The rename field takes the focus, not the menu's trigger.
            onCloseAutoFocus={(e) => {
              if (!renameChosen.current) return;
              renameChosen.current = false;
              e.preventDefault();
              inputRef.current?.focus();
              inputRef.current?.select();
            }}
          >
            <DropdownMenuItem disabled={busy} onSelect={startRename}>
              <PencilIcon aria-hidden="true" />
              {messages.dataSourceRename}
            </DropdownMenuItem>
            {replaceable ? (
              <DropdownMenuItem disabled={busy} onSelect={onReplace}>
                <ReplaceIcon aria-hidden="true" />
                {messages.dataSourceReplace}
              </DropdownMenuItem>
            ) : null}
            {syncable ? (
              <DropdownMenuItem disabled={busy} onSelect={onSync}>
                <RefreshCwIcon aria-hidden="true" />
                {messages.dataSourceSyncAgain}
              </DropdownMenuItem>
            ) : null}
            <DropdownMenuSeparator />
            <DropdownMenuItem disabled={busy} variant="destructive" onSelect={onDelete}>
              <Trash2Icon aria-hidden="true" />
              {messages.dataSourceDelete}
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
      {reason ? <p className="pl-7 text-xs text-destructive">{reason}</p> : null}
    </li>
  );
}
