import { describe, expect, it } from "vitest";
import { editsInDialog } from "@/components/editor/database/cell-editor";
import { chipChoices, toggleChip } from "@/components/editor/database/chip-picker";
import { dateTimeText, isLongText } from "@/components/editor/database/table-cell";
import { tableColumns } from "@/lib/space/table-columns";

// The Database grid's cells: dates in the 12-hour format, and which values edit in a dialog
// (long text over 50 characters or with a line break, JSON and lists) rather than in the cell.

const [text, json, tags] = tableColumns("Task", [
  { name: "title", type: "string", required: false, builtIn: false },
  { name: "meta", type: "object", required: false, builtIn: false },
  { name: "tags", type: "array", itemEnum: ["a", "b"], required: false, builtIn: false },
] as Parameters<typeof tableColumns>[1]);

describe("table cells", () => {
  it("shows a date and time in the 12-hour format, and text that is no date as it is", () => {
    expect(dateTimeText("2026-11-27T14:05:00")).toBe("Nov 27, 2026, 2:05 PM");
    expect(dateTimeText("2026-11-27T00:30:00")).toBe("Nov 27, 2026, 12:30 AM");
    expect(dateTimeText("soon")).toBe("soon");
  });

  it("edits long text, JSON and lists in a dialog, short text in the cell", () => {
    expect(isLongText("a".repeat(50))).toBe(false);
    expect(isLongText("a".repeat(51))).toBe(true);
    expect(isLongText("two\nlines")).toBe(true);
    expect(editsInDialog(text!, "short")).toBe(false);
    expect(editsInDialog(text!, "x".repeat(51))).toBe(true);
    expect(editsInDialog(json!, { a: 1 })).toBe(true);
    expect(editsInDialog(tags!, ["a"])).toBe(true);
  });
});

describe("the multiselect chip picker", () => {
  const options = tags!.options;
  it("offers the options, then values the list holds that are no longer options", () => {
    expect(chipChoices(options, ["b", "old", "old"]).map((c) => c.value)).toEqual(["a", "b", "old"]);
  });

  it("toggles a chip in (in the options' order) and out", () => {
    const choices = chipChoices(options, []);
    expect(toggleChip(choices, ["b"], "a")).toEqual(["a", "b"]);
    expect(toggleChip(choices, ["a", "b"], "a")).toEqual(["b"]);
  });
});
