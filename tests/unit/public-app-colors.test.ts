import { describe, expect, it } from "vitest";
import { contrastRatio, isDarkColor, readableOn, withAlpha } from "@/components/public-app/colors";
import { cssUrl } from "@/components/public-app/safe-url";
import { safeHref, safeImageSrc } from "@/lib/apps/safe-link";

describe("public page colours", () => {
  it("measures WCAG contrast", () => {
    expect(contrastRatio("#000000", "#FFFFFF")).toBeCloseTo(21, 5);
    expect(contrastRatio("#FFFFFF", "#FFFFFF")).toBeCloseTo(1, 5);
    expect(contrastRatio("#000000", "#7BDCB5")).toBeGreaterThan(4.5);
  });

  it("keeps the builder's colour when it reads, and swaps a slip for black or white", () => {
    expect(readableOn("#123456", "#FFFFFF")).toBe("#123456");
    expect(readableOn("#FFFFFF", "#FFFFFF")).toBe("#000000");
    expect(readableOn("#000000", "#000000")).toBe("#FFFFFF");
    expect(readableOn("#7BDCB5", "#7BDCB5")).toBe("#000000");
    expect(readableOn("not a colour", "#000000")).toBe("#FFFFFF");
  });

  it("tells dark backgrounds from light ones", () => {
    expect(isDarkColor("#000000")).toBe(true);
    expect(isDarkColor("#7BDCB5")).toBe(false);
    expect(isDarkColor("#FFFFFF")).toBe(false);
    expect(withAlpha("#FF0000", 0.5)).toBe("rgba(255, 0, 0, 0.5)");
  });
});

describe("builder-entered addresses", () => {
  it("lets web addresses and same-site paths through, nothing that runs or leaves the scheme", () => {
    expect(safeHref("https://example.com/a?b=1")).toBe("https://example.com/a?b=1");
    expect(safeHref("/app/1")).toBe("/app/1");
    expect(safeHref("mailto:hi@example.com")).toBe("mailto:hi@example.com");
    expect(safeHref("javascript:alert(1)")).toBeNull();
    expect(safeHref(" JaVaScRiPt:alert(1)")).toBeNull();
    expect(safeHref("//evil.example")).toBeNull();
    expect(safeHref("/\\evil.example")).toBeNull();
    expect(safeHref("data:text/html,hi")).toBeNull();
    expect(safeHref("")).toBeNull();
    expect(safeImageSrc("mailto:hi@example.com")).toBeNull();
  });

  it("quotes a CSS url() so an address cannot close it", () => {
    expect(cssUrl('/a")b')).toBe('url("/a\\22 )b")');
  });
});
