import type { ContextItemView } from "./data-sources-api";

// The panel's list after a request's answer. An item may already be listed, by a reload or its
// live status, when the answer comes back: the listed one is kept, its status being newer than the
// answer's Pending (a quick source can be Synced by then, and would stay Pending with no event
// left to move it on), and no item is ever listed twice.

/** Items just added go first, unless already listed. */
export function withAdded(
  list: readonly ContextItemView[],
  added: readonly ContextItemView[],
): ContextItemView[] {
  const listed = new Set(list.map((i) => i.id));
  return [...added.filter((i) => !listed.has(i.id)), ...list];
}

/** The replacing item takes the old one's place, or the old one goes when it is already listed. */
export function withReplaced(
  list: readonly ContextItemView[],
  oldId: string,
  added: ContextItemView,
): ContextItemView[] {
  return list.some((i) => i.id === added.id)
    ? list.filter((i) => i.id !== oldId)
    : list.map((i) => (i.id === oldId ? added : i));
}
