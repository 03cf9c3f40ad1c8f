// The keys of a WAI-ARIA tree with one tab stop (roving focus), shared by the file trees: Up and
// Down move, Home and End go to the ends, Right opens a folder or enters it, Left closes it or goes
// to its folder, Enter and Space open a file or open and close a folder. No React: the trees map
// their visible rows to this shape and carry out the action.

/** One visible row of a tree, as the keys see it. */
export type TreeRow = {
  id: string;
  folder: boolean;
  open: boolean;
  parentId: string | null;
  /** A folder's first visible child. */
  firstChildId: string | null;
};

export type TreeKeyAction =
  | { kind: "focus"; id: string | null }
  | { kind: "toggle"; id: string; open: boolean }
  | { kind: "activate"; id: string };

/** What `key` does on the active row; null when it is no key of the tree's (the browser keeps it). */
export function treeKeyAction(
  key: string,
  rows: readonly TreeRow[],
  activeId: string | null,
): TreeKeyAction | null {
  const index = rows.findIndex((r) => r.id === activeId);
  const row = rows[index];
  if (!row) return null;
  const focus = (r: TreeRow | undefined): TreeKeyAction => ({ kind: "focus", id: r?.id ?? null });
  switch (key) {
    case "ArrowDown":
      return focus(rows[index + 1]);
    case "ArrowUp":
      return focus(rows[index - 1]);
    case "Home":
      return focus(rows[0]);
    case "End":
      return focus(rows.at(-1));
    case "ArrowRight":
      if (!row.folder) return { kind: "focus", id: null };
      return row.open ? { kind: "focus", id: row.firstChildId } : { kind: "toggle", id: row.id, open: true };
    case "ArrowLeft":
      return row.folder && row.open
        ? { kind: "toggle", id: row.id, open: false }
        : { kind: "focus", id: row.parentId };
    case "Enter":
    case " ":
      return row.folder ? { kind: "toggle", id: row.id, open: !row.open } : { kind: "activate", id: row.id };
    default:
      return null;
  }
}
