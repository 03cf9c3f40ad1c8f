import { describe, expect, it } from "vitest";
import { withHeaders } from "@/lib/api/route";

// Our headers on answers a handler made itself (a space app's function's answer, Auth.js's).

describe("withHeaders", () => {
  it("adds them to a handler's own answer in place, its body untouched and its own headers kept", async () => {
    const own = new Response(new TextEncoder().encode('{"ok":true}'), {
      status: 201,
      headers: { "content-type": "application/json", "x-content-type-options": "theirs" },
    });
    const res = withHeaders(own, "req-1");
    // No copy: a copy would turn the body into a stream for every function call.
    expect(res).toBe(own);
    expect(res.status).toBe(201);
    expect(res.headers.get("x-request-id")).toBe("req-1");
    expect(res.headers.get("x-content-type-options")).toBe("theirs");
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.text()).toBe('{"ok":true}');
  });

  it("copies an answer whose headers cannot change (a redirect) with them added", () => {
    const redirect = Response.redirect("https://example.com/next", 302);
    const res = withHeaders(redirect, "req-2");
    expect(res).not.toBe(redirect);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("https://example.com/next");
    expect(res.headers.get("x-request-id")).toBe("req-2");
  });
});
