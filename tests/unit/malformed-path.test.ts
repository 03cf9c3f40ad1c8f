import { describe, expect, it } from "vitest";
import { hasMalformedPath } from "@/lib/security/malformed-path";

describe("hasMalformedPath", () => {
  it("finds percent escapes that do not decode as UTF-8 in the path", () => {
    for (const target of [
      "/api/apps/%E0%A4%A",
      "/app/%C0%AF",
      "/app/%ED%A0%80",
      "/app/abc%2",
      "/%",
      "/a/%ZZ",
    ]) {
      expect(hasMalformedPath(target), target).toBe(true);
    }
  });

  it("leaves well-formed paths alone, and never looks at the query", () => {
    for (const target of [
      "/",
      "/app/abc",
      "/app/%C3%A9t%C3%A9",
      "/app/%F0%9F%98%80",
      "/app/%00",
      "/login?x=%E0%A4%A",
    ]) {
      expect(hasMalformedPath(target), target).toBe(false);
    }
  });
});
