import { describe, expect, it } from "vitest";
import { MAIN_PAGE } from "@/lib/constants";
import { safeRedirectPath } from "@/lib/security/redirects";

const ORIGIN = "http://localhost:3000";
const safe = (target: string | null | undefined, fallback?: string) =>
  safeRedirectPath(target, ORIGIN, fallback);

describe("safeRedirectPath", () => {
  it.each([
    "//evil.com",
    "//evil.com/path",
    "///evil.com",
    "/\\evil.com",
    "\\\\evil.com",
    "\\/evil.com",
    "/\\/evil.com",
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    " javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "http://evil.com",
    "https://evil.com/home",
    "https://localhost:3000.evil.com",
    "http://localhost:3000.evil.com/home",
    "http://localhost:3000@evil.com/",
    "http://evil.com#http://localhost:3000",
    "https://localhost:3000/home", // another scheme is another origin
    "http://localhost:3001/home",
    "https:evil.com",
    " //evil.com",
    // Dot segments that normalise to a protocol-relative "//evil.com".
    "/.//evil.com",
    "/..//evil.com",
    "/a/..//evil.com",
    "/%2e//evil.com",
    "/.%2e//evil.com",
    "/home/../..//evil.com?x=1",
  ])("refuses %j", (target) => {
    const out = safe(target);
    expect(out.startsWith("/")).toBe(true);
    expect(out.startsWith("//")).toBe(false);
    expect(out).not.toContain("evil.com");
    expect(new URL(out, ORIGIN).origin).toBe(ORIGIN);
  });

  it.each([
    ["tab inside the slashes", "/\t/evil.com"],
    ["newline inside the slashes", "/\n/evil.com"],
    ["carriage return", "/\r/evil.com"],
    ["leading tab", "\t//evil.com"],
    ["tab in the scheme", "java\tscript:alert(1)"],
    ["newline in the scheme", "java\nscript:alert(1)"],
    ["NUL byte", "/home\u0000//evil.com"],
    ["DEL", "/\u007f/evil.com"],
  ])("refuses %s", (_label, target) => {
    expect(safe(target)).toBe(MAIN_PAGE);
  });

  it("answers the fallback for refused targets, and the main page by default", () => {
    expect(safe("//evil.com")).toBe(MAIN_PAGE);
    expect(safe("//evil.com", "/login")).toBe("/login");
    expect(safe(undefined)).toBe(MAIN_PAGE);
    expect(safe(null, "/login")).toBe("/login");
    expect(safe("")).toBe(MAIN_PAGE);
  });

  it.each([
    ["/home?x=1#y", "/home?x=1#y"],
    ["/build/app/123", "/build/app/123"],
    ["/analytics/app/1?goto=upgrade_app_plan", "/analytics/app/1?goto=upgrade_app_plan"],
    ["/tool/summary?messageId=5&preview=true", "/tool/summary?messageId=5&preview=true"],
    ["http://localhost:3000/home?x=1", "/home?x=1"],
    ["home", "/home"],
    ["/a/../home", "/home"],
    // Encoded slashes stay a path on our origin; browsers do not decode them into a host.
    ["/%2F%2Fevil.com", "/%2F%2Fevil.com"],
    ["%2F%2Fevil.com", "/%2F%2Fevil.com"],
  ])("keeps the same-origin target %j as %j", (target, expected) => {
    expect(safe(target)).toBe(expected);
  });
});
