import { describe, expect, it } from "vitest";
import { freePath, toolPathError } from "@/components/editor/tools/tool-path-field";
import { activationRefusal, fromTemplate } from "@/components/editor/tools/tool-status-rules";
import { newId } from "@/components/home/new-id";
import { relativeTime } from "@/components/home/relative-time";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("newId", () => {
  it("makes v4 UUIDs, also where crypto.randomUUID is missing (plain http)", () => {
    expect(newId()).toMatch(UUID_V4);
    const randomUUID = crypto.randomUUID;
    try {
      Object.defineProperty(crypto, "randomUUID", { value: undefined, configurable: true });
      const ids = new Set(Array.from({ length: 50 }, () => newId()));
      expect(ids.size).toBe(50);
      for (const id of ids) expect(id).toMatch(UUID_V4);
    } finally {
      Object.defineProperty(crypto, "randomUUID", { value: randomUUID, configurable: true });
    }
  });
});

describe("relativeTime", () => {
  const now = Date.parse("2026-03-10T12:00:00Z");
  const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();
  it("says the largest unit that fits", () => {
    expect(relativeTime(ago(10), now)).toBe("now");
    expect(relativeTime(ago(5 * 60), now)).toBe("5 minutes ago");
    expect(relativeTime(ago(3 * 3600), now)).toBe("3 hours ago");
    expect(relativeTime(ago(26 * 3600), now)).toBe("yesterday");
    expect(relativeTime(ago(15 * 24 * 3600), now)).toBe("2 weeks ago");
    expect(relativeTime(ago(400 * 24 * 3600), now)).toBe("last year");
  });
});

describe("tool paths in the editor", () => {
  it("checks the spec's rule and uniqueness as typed", () => {
    expect(toolPathError("", [])).toBe(messages.toolPathInvalid);
    expect(toolPathError("meal planner", [])).toBe(messages.toolPathInvalid);
    expect(toolPathError("Meal-Planner", ["meal-planner"])).toBe(messages.toolPathTaken);
    expect(toolPathError("meal-planner-2", ["meal-planner"])).toBeNull();
  });
  it("suggests a free path", () => {
    expect(freePath("meal-planner", [])).toBe("meal-planner");
    expect(freePath("meal-planner", ["Meal-Planner", "meal-planner-2"])).toBe("meal-planner-3");
  });
});

describe("activation refusals", () => {
  it("recognises the header rule and the live tool limit, whatever {n}", () => {
    expect(activationRefusal(messages.toolNeedsHeader)).toBe("header");
    expect(activationRefusal(fillTemplate(messages.liveToolLimit, { n: 20 }))).toBe("liveTools");
    expect(activationRefusal(messages.toolPathTaken)).toBeNull();
    expect(fromTemplate("Another (x) thing", "Another ({n}) thing")).toBe(true);
    expect(fromTemplate("Another thing", "Another ({n}) thing")).toBe(false);
  });
});
