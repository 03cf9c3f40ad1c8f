// The order the changes dialogs list a version's changed files in, shared by the server (the
// first file it sends with both sides, lib/space/versions.ts) and the dialogs' trees:
// added, modified, deleted; by path within each; unchanged files left out.

/** A change's place in the order: the tree ranks its folders by the first of their files, too. */
export const STATUS_RANK: Record<string, number> = { added: 0, modified: 1, deleted: 2 };

/** Paths in code-unit order. */
export const byPath = (a: { path: string }, b: { path: string }) =>
  a.path < b.path ? -1 : a.path > b.path ? 1 : 0;

export function orderChanges<T extends { path: string; status: string }>(changes: T[]): T[] {
  return changes
    .filter((c) => c.status in STATUS_RANK)
    .sort((a, b) => STATUS_RANK[a.status]! - STATUS_RANK[b.status]! || byPath(a, b));
}
