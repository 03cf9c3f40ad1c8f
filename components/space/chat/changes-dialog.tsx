"use client";

import { ChevronRightIcon, FolderIcon } from "lucide-react";
import { type KeyboardEvent, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { LoadFailed } from "@/components/ui/load-failed";
import { LoadingLine } from "@/components/ui/loading-line";
import { type TreeRow, treeKeyAction } from "@/components/ui/tree-keys";
import { messages } from "@/lib/messages";
import { orderChanges, STATUS_RANK } from "@/lib/space/change-order";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";
import { fetchVersionDetail } from "./chat-api";
import { type ChangedFile, type ChangeStatus, StatusLetter } from "./file-diff";
import { FileHistoryButton, NestedFileHistory } from "./file-history-dialog";
import { FileSidesDiff } from "./file-sides-diff";
import { type ChangedPath, givenSides, NONE_GIVEN, useFileSides } from "./use-file-sides";
import { useFocusOpener } from "./use-focus-opener";

// The all-changes diff dialog: a tree of the files a version changed against its
// parent ("Diff status per file: added, modified, deleted, unchanged (unchanged hidden; order
// added, modified, deleted)") and the line diff of the selected file. The new side is the
// version's files (GET .../versions/{id}), the old side its parent's.
// The selected file's History opens its version history dialog over this one.

export type { ChangedFile, ChangedPath, ChangeStatus };

type TreeNode =
  | { kind: "folder"; id: string; name: string; children: TreeNode[]; rank: number }
  | { kind: "file"; id: string; name: string; file: ChangedPath; rank: number };

/** Folders of the changed files; at each level the entries holding an added file first, then modified, then deleted. */
function buildTree(files: ChangedPath[]): TreeNode[] {
  const root: TreeNode[] = [];
  for (const file of files) {
    const parts = file.path.split("/");
    let level = root;
    let prefix = "";
    for (const [i, name] of parts.entries()) {
      prefix = prefix ? `${prefix}/${name}` : name;
      const rank = STATUS_RANK[file.status]!;
      if (i === parts.length - 1) {
        level.push({ kind: "file", id: prefix, name, file, rank });
      } else {
        let folder = level.find((n) => n.kind === "folder" && n.name === name);
        if (!folder) {
          folder = { kind: "folder", id: `${prefix}/`, name, children: [], rank };
          level.push(folder);
        }
        folder.rank = Math.min(folder.rank, rank);
        level = (folder as Extract<TreeNode, { kind: "folder" }>).children;
      }
    }
  }
  const sort = (nodes: TreeNode[]) => {
    nodes.sort(
      (a, b) =>
        a.rank - b.rank || (a.kind === b.kind ? (a.name < b.name ? -1 : 1) : a.kind === "folder" ? -1 : 1),
    );
    for (const n of nodes) if (n.kind === "folder") sort(n.children);
  };
  sort(root);
  return root;
}

type VisibleItem = { node: TreeNode; depth: number; parentId: string | null };

function visibleItems(nodes: TreeNode[], collapsed: Set<string>, depth = 0, parentId: string | null = null) {
  const out: VisibleItem[] = [];
  for (const node of nodes) {
    out.push({ node, depth, parentId });
    if (node.kind === "folder" && !collapsed.has(node.id)) {
      out.push(...visibleItems(node.children, collapsed, depth + 1, node.id));
    }
  }
  return out;
}

type Loaded =
  | { state: "loading" }
  | { state: "failed" }
  | { state: "ready"; versionNumber: number; files: ChangedPath[]; given: ReadonlyMap<string, ChangedFile> };

/**
 * The files a version changed, without their contents (a version of 200 changed files is one small
 * answer), and the first of them with both sides: the dialog opens on one answer.
 */
async function loadChanges(appId: string, versionId: string) {
  const detail = await fetchVersionDetail(appId, versionId, { files: "none", sides: "first" });
  const files = orderChanges(detail.changes).map((c) => ({ path: c.path, status: c.status as ChangeStatus }));
  return {
    versionNumber: detail.version.number,
    files,
    given: givenSides(detail.firstFile),
  };
}

export function ChangesDialog({
  appId,
  versionId,
  onOpenChange,
}: {
  appId: string;
  versionId: string;
  onOpenChange: (open: boolean) => void;
}) {
  const focusOpener = useFocusOpener();
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  const [selected, setSelected] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  /** The file whose version history dialog is open over this one. */
  const [historyOf, setHistoryOf] = useState<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` reloads after a failure
  useEffect(() => {
    let live = true;
    setLoaded({ state: "loading" });
    loadChanges(appId, versionId).then(
      (r) => {
        if (!live) return;
        setLoaded({ state: "ready", ...r });
        setSelected(r.files[0]?.path ?? null);
      },
      () => live && setLoaded({ state: "failed" }),
    );
    return () => {
      live = false;
    };
  }, [appId, versionId, attempt]);

  const file = loaded.state === "ready" ? loaded.files.find((f) => f.path === selected) : undefined;
  const { sides, retry } = useFileSides(
    appId,
    versionId,
    "parent",
    file,
    loaded.state === "ready" ? loaded.given : NONE_GIVEN,
  );
  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent
        onCloseAutoFocus={focusOpener}
        size="xl"
        data-testid="changes-dialog"
        className="gap-3 p-4 sm:p-6"
      >
        <DialogHeader>
          <DialogTitle>
            {loaded.state === "ready"
              ? fillTemplate(messages.diffTitle, { n: loaded.versionNumber })
              : messages.chatViewChanges}
          </DialogTitle>
          <DialogDescription>{messages.diffText}</DialogDescription>
        </DialogHeader>
        {loaded.state === "loading" ? (
          <LoadingLine text={messages.diffLoading} />
        ) : loaded.state === "failed" ? (
          <LoadFailed text={messages.diffLoadFailed} onRetry={() => setAttempt((n) => n + 1)} />
        ) : loaded.files.length === 0 ? (
          <p className="text-sm text-muted-foreground">{messages.diffNoChanges}</p>
        ) : (
          <div className="grid min-h-0 gap-3 md:grid-cols-[minmax(0,16rem)_minmax(0,1fr)]">
            <FileTree files={loaded.files} selected={selected} onSelect={setSelected} />
            {file ? (
              <FileSidesDiff
                sides={sides}
                retry={retry}
                failedText={messages.diffLoadFailed}
                actions={<FileHistoryButton path={file.path} onOpen={setHistoryOf} variant="outline" />}
              />
            ) : null}
          </div>
        )}
        <NestedFileHistory appId={appId} path={historyOf} onClose={() => setHistoryOf(null)} />
      </DialogContent>
    </Dialog>
  );
}

/**
 * A WAI-ARIA tree: one tab stop (roving tabindex); Up/Down move, Right opens a folder or enters
 * it, Left closes it or goes to its folder, Home/End, Enter/Space select a file.
 */
export function FileTree({
  files,
  selected,
  onSelect,
}: {
  files: ChangedPath[];
  selected: string | null;
  onSelect: (path: string) => void;
}) {
  const tree = useMemo(() => buildTree(files), [files]);
  const [collapsed, setCollapsed] = useState<Set<string>>(() => new Set());
  const items = useMemo(() => visibleItems(tree, collapsed), [tree, collapsed]);
  const [focusId, setFocusId] = useState<string | null>(selected);
  const refs = useRef(new Map<string, HTMLDivElement>());
  const active = items.some((i) => i.node.id === focusId) ? focusId : (items[0]?.node.id ?? null);

  const focus = useCallback((id: string | undefined | null) => {
    if (!id) return;
    setFocusId(id);
    refs.current.get(id)?.focus();
  }, []);

  const toggle = (id: string, open: boolean) =>
    setCollapsed((c) => {
      const next = new Set(c);
      if (open) next.delete(id);
      else next.add(id);
      return next;
    });

  const rows = useMemo(
    () =>
      items.map(
        ({ node, parentId }): TreeRow => ({
          id: node.id,
          folder: node.kind === "folder",
          open: node.kind === "folder" && !collapsed.has(node.id),
          parentId,
          firstChildId: node.kind === "folder" ? (node.children[0]?.id ?? null) : null,
        }),
      ),
    [items, collapsed],
  );

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const action = treeKeyAction(e.key, rows, active);
    if (!action) return;
    e.preventDefault();
    if (action.kind === "focus") focus(action.id);
    else if (action.kind === "toggle") toggle(action.id, action.open);
    else {
      const node = items.find((i) => i.node.id === action.id)?.node;
      if (node?.kind === "file") onSelect(node.file.path);
    }
  };

  return (
    <div
      role="tree"
      aria-label={messages.diffFilesLabel}
      onKeyDown={onKeyDown}
      className="max-h-48 overflow-auto rounded-md border border-border p-1 text-sm md:max-h-[60vh]"
      data-testid="changes-tree"
    >
      {items.map(({ node, depth }) => {
        const isFolder = node.kind === "folder";
        const open = isFolder && !collapsed.has(node.id);
        const isSelected = !isFolder && node.file.path === selected;
        return (
          <div
            key={node.id}
            ref={(el) => {
              if (el) refs.current.set(node.id, el);
              else refs.current.delete(node.id);
            }}
            role="treeitem"
            aria-level={depth + 1}
            aria-expanded={isFolder ? open : undefined}
            aria-selected={isFolder ? undefined : isSelected}
            tabIndex={node.id === active ? 0 : -1}
            data-path={isFolder ? undefined : node.file.path}
            data-status={isFolder ? undefined : node.file.status}
            onFocus={() => setFocusId(node.id)}
            onClick={() => {
              setFocusId(node.id);
              if (isFolder) toggle(node.id, !open);
              else onSelect(node.file.path);
            }}
            // Keys are handled once, on the tree (roving focus).
            onKeyDown={() => undefined}
            // content-visibility: the items scrolled out of the tree's box are not styled, laid out
            // or painted until they come near it (a 200-file version opens about 15 ms sooner in
            // bench/space-changes.ts); 1.75rem is an item's height (py-1 and a line of text-sm).
            className={cn(
              "flex cursor-pointer items-center gap-1.5 rounded-sm py-1 pr-2 outline-none select-none [contain-intrinsic-size:auto_1.75rem] [content-visibility:auto] hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring",
              isSelected && "bg-accent font-medium",
            )}
            style={{ paddingLeft: `${0.25 + depth * 0.875}rem` }}
          >
            {isFolder ? (
              <>
                <ChevronRightIcon
                  aria-hidden
                  className={cn("size-3.5 shrink-0 transition-transform", open && "rotate-90")}
                />
                <FolderIcon aria-hidden className="size-3.5 shrink-0 text-muted-foreground" />
                <span className="min-w-0 truncate">{node.name}</span>
              </>
            ) : (
              <>
                {/* No icon of its own: the status letter tells a file from a folder, and 200 fewer
                    SVGs make a large version's tree appear sooner. */}
                <span
                  className={cn(
                    "ml-5 min-w-0 flex-1 truncate",
                    node.file.status === "deleted" && "line-through",
                  )}
                >
                  {node.name}
                </span>
                <StatusLetter status={node.file.status} />
              </>
            )}
          </div>
        );
      })}
    </div>
  );
}
