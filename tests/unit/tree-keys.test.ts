import { describe, expect, it } from "vitest";
import { type TreeRow, treeKeyAction } from "@/components/ui/tree-keys";

// The keys of the file trees (the changes dialog's, the Code panel's): one set of rules.

const rows: TreeRow[] = [
  { id: "pages/", folder: true, open: true, parentId: null, firstChildId: "pages/A.jsx" },
  { id: "pages/A.jsx", folder: false, open: false, parentId: "pages/", firstChildId: null },
  { id: "pages/B.jsx", folder: false, open: false, parentId: "pages/", firstChildId: null },
  { id: "lib/", folder: true, open: false, parentId: null, firstChildId: null },
];

describe("treeKeyAction", () => {
  it("moves with Up, Down, Home and End, and stays put at the ends", () => {
    expect(treeKeyAction("ArrowDown", rows, "pages/")).toEqual({ kind: "focus", id: "pages/A.jsx" });
    expect(treeKeyAction("ArrowUp", rows, "pages/A.jsx")).toEqual({ kind: "focus", id: "pages/" });
    expect(treeKeyAction("ArrowUp", rows, "pages/")).toEqual({ kind: "focus", id: null });
    expect(treeKeyAction("End", rows, "pages/")).toEqual({ kind: "focus", id: "lib/" });
    expect(treeKeyAction("Home", rows, "lib/")).toEqual({ kind: "focus", id: "pages/" });
  });

  it("Right opens a closed folder, then enters it; Left closes an open one, or goes to the folder", () => {
    expect(treeKeyAction("ArrowRight", rows, "lib/")).toEqual({ kind: "toggle", id: "lib/", open: true });
    expect(treeKeyAction("ArrowRight", rows, "pages/")).toEqual({ kind: "focus", id: "pages/A.jsx" });
    expect(treeKeyAction("ArrowRight", rows, "pages/B.jsx")).toEqual({ kind: "focus", id: null });
    expect(treeKeyAction("ArrowLeft", rows, "pages/")).toEqual({ kind: "toggle", id: "pages/", open: false });
    expect(treeKeyAction("ArrowLeft", rows, "pages/B.jsx")).toEqual({ kind: "focus", id: "pages/" });
  });

  it("Enter and Space open a file or toggle a folder; other keys are left to the browser", () => {
    expect(treeKeyAction("Enter", rows, "pages/B.jsx")).toEqual({ kind: "activate", id: "pages/B.jsx" });
    expect(treeKeyAction(" ", rows, "lib/")).toEqual({ kind: "toggle", id: "lib/", open: true });
    expect(treeKeyAction("Tab", rows, "pages/")).toBeNull();
    expect(treeKeyAction("ArrowDown", rows, "gone")).toBeNull();
  });
});
