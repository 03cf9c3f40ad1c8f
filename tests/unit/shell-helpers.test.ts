import { describe, expect, it } from "vitest";
import { isSidebarOpen, isSidebarShortcut, sidebarCookie } from "@/components/shell/sidebar-state";
import { isInAppNavigation, type LinkClick } from "@/components/shell/use-leave-warning";
import { SIDEBAR_COOKIE, SIDEBAR_COOKIE_MAX_AGE_S } from "@/lib/constants";

describe("sidebar state", () => {
  it("starts open unless the cookie says false", () => {
    expect(isSidebarOpen(undefined)).toBe(true);
    expect(isSidebarOpen("true")).toBe(true);
    expect(isSidebarOpen("")).toBe(true);
    expect(isSidebarOpen("false")).toBe(false);
  });

  it("round-trips through the cookie it writes", () => {
    for (const open of [true, false]) {
      const cookie = sidebarCookie(open);
      const [pair] = cookie.split(";");
      const [name, value] = pair.split("=");
      expect(name).toBe(SIDEBAR_COOKIE);
      expect(isSidebarOpen(value)).toBe(open);
    }
  });

  it("lasts a week on every path", () => {
    const attributes = sidebarCookie(true)
      .split(";")
      .slice(1)
      .map((part) => part.trim());
    expect(attributes).toContain("path=/");
    expect(attributes).toContain(`max-age=${SIDEBAR_COOKIE_MAX_AGE_S}`);
    expect(SIDEBAR_COOKIE_MAX_AGE_S).toBe(604800);
    expect(attributes).not.toContain("secure");
    expect(
      sidebarCookie(true, true)
        .split(";")
        .map((p) => p.trim()),
    ).toContain("secure");
  });

  it("toggles on Ctrl+B and Cmd+B only", () => {
    const key = (over: Partial<KeyboardEvent>) => ({
      key: "b",
      ctrlKey: false,
      metaKey: false,
      altKey: false,
      shiftKey: false,
      ...over,
    });
    expect(isSidebarShortcut(key({ ctrlKey: true }))).toBe(true);
    expect(isSidebarShortcut(key({ metaKey: true }))).toBe(true);
    expect(isSidebarShortcut(key({ key: "B", ctrlKey: true }))).toBe(true); // Caps Lock
    expect(isSidebarShortcut(key({}))).toBe(false);
    expect(isSidebarShortcut(key({ key: "n", ctrlKey: true }))).toBe(false);
    expect(isSidebarShortcut(key({ ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(isSidebarShortcut(key({ ctrlKey: true, altKey: true }))).toBe(false);
  });
});

describe("isInAppNavigation", () => {
  const here = "https://builder.test/build/app/a1?tab=data#top";
  const click = (over: Partial<LinkClick>): LinkClick => ({
    button: 0,
    metaKey: false,
    ctrlKey: false,
    shiftKey: false,
    altKey: false,
    defaultPrevented: false,
    href: "/home",
    target: "",
    download: false,
    ...over,
  });

  it("asks for a plain click to another page of the app", () => {
    expect(isInAppNavigation(click({ href: "https://builder.test/home" }), here)).toBe(true);
    expect(isInAppNavigation(click({ href: "/settings" }), here)).toBe(true);
    expect(isInAppNavigation(click({ href: "/build/app/a1?tab=style" }), here)).toBe(true);
    expect(isInAppNavigation(click({ href: "/build/app/a1" }), here)).toBe(true);
    expect(isInAppNavigation(click({ target: "_self" }), here)).toBe(true);
    expect(isInAppNavigation(click({ target: "_SELF" }), here)).toBe(true);
  });

  it("leaves the same page alone (anchors and the current URL)", () => {
    expect(isInAppNavigation(click({ href: "#section" }), here)).toBe(false);
    expect(isInAppNavigation(click({ href: "/build/app/a1?tab=data#other" }), here)).toBe(false);
    expect(isInAppNavigation(click({ href: "/build/app/a1?tab=data" }), here)).toBe(false);
  });

  it("leaves clicks that keep this page open alone", () => {
    expect(isInAppNavigation(click({ target: "_blank" }), here)).toBe(false);
    expect(isInAppNavigation(click({ metaKey: true }), here)).toBe(false);
    expect(isInAppNavigation(click({ ctrlKey: true }), here)).toBe(false);
    expect(isInAppNavigation(click({ shiftKey: true }), here)).toBe(false);
    expect(isInAppNavigation(click({ altKey: true }), here)).toBe(false);
    expect(isInAppNavigation(click({ button: 1 }), here)).toBe(false);
    expect(isInAppNavigation(click({ download: true }), here)).toBe(false);
  });

  it("leaves clicks someone already handled alone", () => {
    expect(isInAppNavigation(click({ defaultPrevented: true }), here)).toBe(false);
  });

  it("leaves other origins and schemes to the browser's own prompt", () => {
    expect(isInAppNavigation(click({ href: "https://example.com/home" }), here)).toBe(false);
    expect(isInAppNavigation(click({ href: "http://builder.test/home" }), here)).toBe(false);
    expect(isInAppNavigation(click({ href: "https://builder.test:8443/home" }), here)).toBe(false);
    expect(isInAppNavigation(click({ href: "mailto:help@builder.test" }), here)).toBe(false);
    expect(isInAppNavigation(click({ href: "javascript:void(0)" }), here)).toBe(false);
  });
});
