import { describe, expect, it } from "vitest";
import {
  contrastRatio,
  isDarkColor,
  readableOn,
  shownTextColors,
  TEXT_COLOR_GROUNDS,
  withAlpha,
} from "@/components/public-app/colors";
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

describe("shownTextColors (the public page's text colours, named in the editor)", () => {
  const style = {
    background: "#FFFFFF",
    headerTextColor: "#123456",
    subheaderTextColor: "#F4F4F5",
    buttonTextColor: "#FFFFFF",
    buttonBackgroundColor: "#000000",
  };

  it("keeps every colour that reads on its ground", () => {
    expect(shownTextColors({ ...style, subheaderTextColor: "#555555" })).toEqual({
      headerTextColor: "#123456",
      subheaderTextColor: "#555555",
      buttonTextColor: "#FFFFFF",
    });
  });

  it("replaces a text colour too close to the background, and a button text too close to the button", () => {
    // A pale grey on white; white text on a pale yellow button.
    expect(shownTextColors({ ...style, buttonBackgroundColor: "#FDE68A" })).toEqual({
      headerTextColor: "#123456",
      subheaderTextColor: "#000000",
      buttonTextColor: "#000000",
    });
    // A button's text is read on the button, not on the page: dark on a dark button is replaced.
    expect(shownTextColors({ ...style, buttonTextColor: "#111111" }).buttonTextColor).toBe("#FFFFFF");
    expect(TEXT_COLOR_GROUNDS.buttonTextColor).toBe("buttonBackgroundColor");
  });
});
