import { describe, expect, it } from "vitest";
import { groupFiles, lineBadge, lineCount, nameInGroup } from "@/components/editor/code/file-groups";
import type { CodeFile } from "@/lib/space/code-schemas";
import { fileItem } from "@/lib/space/files";

// The Code panel's tree: files grouped by kind in the app file item's order, a search over paths,
// and the line badge "above 500 lines".

const file = (path: string, content = ""): CodeFile => ({ ...fileItem(path, content), revision: "r" });

describe("the Code panel's file groups", () => {
  const files = [
    file("globals.css"),
    file("pages/Home.jsx"),
    file("entities/Task.json"),
    file("components/ui/Button.jsx"),
    file("layout.jsx"),
    file("functions/sendMail.ts"),
    file("services/api.js"),
    file("README.md"),
    file("components/Banner.jsx"),
  ];

  it("groups by kind in the order pages, components, services, functions, entities, layout, globals css", () => {
    const groups = groupFiles(files, "");
    expect(groups.map((g) => g.type)).toEqual([
      "pages",
      "components",
      "services",
      "functions",
      "entities",
      "layout",
      "globals css",
      "other",
    ]);
    expect(groups[1]!.files.map((f) => nameInGroup(f))).toEqual(["Banner.jsx", "ui/Button.jsx"]);
    expect(groups.find((g) => g.type === "entities")!.files[0]!.readOnly).toBe(true);
  });

  it("keeps only the files whose path holds the search, case-insensitive, and drops empty groups", () => {
    const groups = groupFiles(files, "  BUTTON ");
    expect(groups.map((g) => [g.type, g.files.map((f) => f.path)])).toEqual([
      ["components", ["components/ui/Button.jsx"]],
    ]);
    expect(groupFiles(files, "nothing here")).toEqual([]);
  });

  it("counts lines and shows a badge above 500 only", () => {
    expect(lineCount("")).toBe(0);
    expect(lineCount("a")).toBe(1);
    expect(lineCount("a\nb\n")).toBe(2);
    expect(lineBadge("x\n".repeat(500))).toBeNull();
    expect(lineBadge("x\n".repeat(501))).toBe(501);
  });
});
