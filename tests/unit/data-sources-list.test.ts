import { describe, expect, it } from "vitest";
import type { ContextItemView } from "@/components/editor/data-sources/data-sources-api";
import { withAdded, withReplaced } from "@/components/editor/data-sources/list-updates";

// The Data sources panel's list after an add or a replace answers, when a reload or a live status
// may have listed the new item first (a worker quicker than the answer): seen in CI as the same
// item listed twice, one Synced and one Pending.

const item = (id: string, status = "pending"): ContextItemView =>
  ({ id, name: `Item ${id}`, status, error: null }) as unknown as ContextItemView;

describe("the panel's list", () => {
  it("puts added items first, unless already listed with a newer status", () => {
    expect(withAdded([item("a", "synced")], [item("b")]).map((i) => i.id)).toEqual(["b", "a"]);
    const list = withAdded([item("b", "synced"), item("a", "synced")], [item("b")]);
    expect(list.map((i) => [i.id, i.status])).toEqual([
      ["b", "synced"],
      ["a", "synced"],
    ]);
  });

  it("a replacing item takes the old one's place once, never twice", () => {
    expect(withReplaced([item("old", "synced")], "old", item("new")).map((i) => i.id)).toEqual(["new"]);
    const listed = withReplaced([item("new", "synced"), item("old", "synced")], "old", item("new"));
    expect(listed.map((i) => [i.id, i.status])).toEqual([["new", "synced"]]);
  });
});
