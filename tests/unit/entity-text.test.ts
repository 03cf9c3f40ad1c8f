import { describe, expect, it } from "vitest";
import { ACCESS_LABEL, ACCESS_PRESETS, fieldTypeText } from "@/components/editor/database/entity-text";
import { messages } from "@/lib/messages";

// The Database panel's words: the access presets in the product's order with their read and
// write levels, and a field's type as the panel shows it.

describe("access presets", () => {
  it("are the spec's six, read / write", () => {
    expect(
      ACCESS_PRESETS.map((p) => [messages[p.label], ACCESS_LABEL[p.read], ACCESS_LABEL[p.write]]),
    ).toEqual([
      ["Anyone can submit, only admins can view", "Admin", "Anonymous"],
      ["Anonymous read, Admin write", "Anonymous", "Admin"],
      ["Every logged in user read, Admin write", "Every logged in user", "Admin"],
      ["Every logged in user read, Creator write", "Every logged in user", "Creator"],
      ["Creator only", "Creator", "Creator"],
      ["Admin only", "Admin", "Admin"],
    ]);
  });
});

describe("fieldTypeText", () => {
  const field = { type: "string", format: null, enum: null, items: null };
  it("names enums, lists, dates and other formats", () => {
    expect(fieldTypeText(field)).toBe("string");
    expect(fieldTypeText({ ...field, enum: ["low", "high"] })).toBe("one of low, high");
    expect(fieldTypeText({ ...field, type: "array", items: "number" })).toBe("list of number");
    expect(fieldTypeText({ ...field, format: "date-time" })).toBe("string, date and time");
    expect(fieldTypeText({ ...field, format: "email" })).toBe("string (email)");
  });
});
