"use client";

import { ChevronRightIcon, FileIcon, LockIcon } from "lucide-react";
import { type KeyboardEvent, useCallback, useMemo, useRef, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { type TreeRow, treeKeyAction } from "@/components/ui/tree-keys";
import { messages } from "@/lib/messages";
import type { CodeFile } from "@/lib/space/code-schemas";
import type { FileType } from "@/lib/space/files";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";
import { type FileGroup, lineBadge, nameInGroup } from "./file-groups";

type Item = { id: string; depth: number; group: FileGroup; file?: CodeFile };

/**
 * The files grouped by kind as a WAI-ARIA tree: one tab stop (roving tabindex); Up/Down move,
 * Right opens a group or enters it, Left closes it or goes to its group, Home/End, Enter/Space
 * open a file. While a search is typed every group is open.
 */
export function FileTree({
  groups,
  selected,
  searching,
  onSelect,
}: {
  groups: FileGroup[];
  selected: string | null;
  searching: boolean;
  onSelect: (path: string) => void;
}) {
  const [collapsed, setCollapsed] = useState<Set<FileType>>(() => new Set());
  const items = useMemo(() => {
    const out: Item[] = [];
    for (const group of groups) {
      out.push({ id: `group:${group.type}`, depth: 0, group });
      if (searching || !collapsed.has(group.type)) {
        for (const file of group.files) out.push({ id: file.path, depth: 1, group, file });
      }
    }
    return out;
  }, [groups, collapsed, searching]);
  const [focusId, setFocusId] = useState<string | null>(selected);
  const refs = useRef(new Map<string, HTMLDivElement>());
  const active = items.some((i) => i.id === focusId) ? focusId : (items[0]?.id ?? null);

  const focus = useCallback((id: string | undefined | null) => {
    if (!id) return;
    setFocusId(id);
    refs.current.get(id)?.focus();
  }, []);

  const toggle = (type: FileType, open: boolean) =>
    setCollapsed((c) => {
      const next = new Set(c);
      if (open) next.delete(type);
      else next.add(type);
      return next;
    });
  const isOpen = (type: FileType) => searching || !collapsed.has(type);

  const rows = useMemo(
    () =>
      items.map((item): TreeRow => {
        const open = !item.file && (searching || !collapsed.has(item.group.type));
        return {
          id: item.id,
          folder: !item.file,
          open,
          parentId: item.file ? `group:${item.group.type}` : null,
          firstChildId: open ? (item.group.files[0]?.path ?? null) : null,
        };
      }),
    [items, collapsed, searching],
  );

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const action = treeKeyAction(e.key, rows, active);
    if (!action) return;
    e.preventDefault();
    if (action.kind === "focus") focus(action.id);
    else if (action.kind === "activate") onSelect(action.id);
    else {
      const group = items.find((i) => i.id === action.id)?.group;
      if (group) toggle(group.type, action.open);
    }
  };

  return (
    <div
      role="tree"
      aria-label={messages.codeTreeLabel}
      onKeyDown={onKeyDown}
      className="max-h-64 overflow-auto rounded-md border border-border p-1 text-sm"
      data-testid="code-tree"
    >
      {items.map((item) => {
        const { file, group } = item;
        const open = !file && isOpen(group.type);
        const isSelected = !!file && file.path === selected;
        const badge = file ? lineBadge(file.content) : null;
        return (
          <div
            key={item.id}
            ref={(el) => {
              if (el) refs.current.set(item.id, el);
              else refs.current.delete(item.id);
            }}
            role="treeitem"
            aria-level={item.depth + 1}
            aria-expanded={file ? undefined : open}
            aria-selected={file ? isSelected : undefined}
            tabIndex={item.id === active ? 0 : -1}
            data-path={file?.path}
            data-group={file ? undefined : group.type}
            onFocus={() => setFocusId(item.id)}
            onClick={() => {
              setFocusId(item.id);
              if (file) onSelect(file.path);
              else toggle(group.type, !open);
            }}
            // Keys are handled once, on the tree (roving focus).
            onKeyDown={() => undefined}
            className={cn(
              "flex cursor-pointer items-center gap-1.5 rounded-sm py-1 pr-2 outline-none select-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring",
              isSelected && "bg-accent font-medium",
              file ? "pl-6" : "pl-1 font-medium",
            )}
          >
            {file ? (
              <>
                <FileIcon aria-hidden className="size-3.5 shrink-0 text-muted-foreground" />
                <span className="min-w-0 flex-1 truncate">{nameInGroup(file)}</span>
                {file.readOnly ? (
                  <>
                    <LockIcon aria-hidden className="size-3 shrink-0 text-muted-foreground" />
                    <span className="sr-only">{messages.codeReadOnlyFile}</span>
                  </>
                ) : null}
                {badge !== null ? (
                  <Badge data-testid="line-badge">{fillTemplate(messages.codeLines, { n: badge })}</Badge>
                ) : null}
              </>
            ) : (
              <>
                <ChevronRightIcon
                  aria-hidden
                  className={cn("size-3.5 shrink-0 transition-transform", open && "rotate-90")}
                />
                <span className="min-w-0 flex-1 truncate">{messages[group.label]}</span>
                <span className="text-xs text-muted-foreground">{group.files.length}</span>
              </>
            )}
          </div>
        );
      })}
    </div>
  );
}
