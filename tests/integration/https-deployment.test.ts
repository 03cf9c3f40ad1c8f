import { NextRequest } from "next/server";
import { afterAll, describe, expect, it, vi } from "vitest";
import * as nextAuthRoute from "@/app/api/auth/[...nextauth]/route";
import * as current from "@/app/api/live_api/account/current/route";
import { createBuilder, fromIp, STRONG_PASSWORD } from "../support/factories";
import { call } from "../support/http";

// A deployment behind https: every cookie is Secure, HSTS is sent, and Auth.js builds every URL
// from APP_URL, whatever Host or X-Forwarded-Host a request claims.
const { original } = vi.hoisted(() => {
  const original = process.env.APP_URL;
  process.env.APP_URL = "https://builder.example.com";
  return { original };
});
afterAll(() => {
  process.env.APP_URL = original;
});

const ON_APP_URL = /^https:\/\/builder\.example\.com(\/|$)/;
const hostile = { host: "evil.com", "x-forwarded-host": "evil.com", "x-forwarded-proto": "http" };

async function authJs(method: "GET" | "POST", path: string, init: { body?: string; cookie?: string } = {}) {
  const req = new NextRequest(new URL(path, "http://evil.com"), {
    method,
    headers: {
      ...hostile,
      ...fromIp(),
      ...(init.cookie ? { cookie: init.cookie } : {}),
      ...(init.body ? { "content-type": "application/x-www-form-urlencoded" } : {}),
    },
    body: init.body,
  });
  return method === "GET" ? nextAuthRoute.GET(req) : nextAuthRoute.POST(req);
}

const cookiePairs = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");

describe("Auth.js under an https APP_URL", () => {
  it("signs in with Secure cookies and redirects only to APP_URL, whatever the Host", async () => {
    const builder = await createBuilder();
    const csrf = await authJs("GET", "/api/auth/csrf");
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const res = await authJs("POST", "/api/auth/callback/password", {
      cookie: cookiePairs(csrf),
      body: new URLSearchParams({
        csrfToken,
        email: builder.user.email,
        password: STRONG_PASSWORD,
        callbackUrl: "https://evil.com/steal",
      }).toString(),
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location"), "the redirect").toMatch(ON_APP_URL);
    const cookies = [...csrf.headers.getSetCookie(), ...res.headers.getSetCookie()];
    expect(cookies.length).toBeGreaterThan(1);
    for (const c of cookies) expect(c, c.split("=")[0]).toMatch(/;\s*Secure/i);
    expect(cookies.some((c) => c.startsWith("__Secure-authjs.session-token="))).toBe(true);
  });

  it("a refused sign-in also redirects to APP_URL", async () => {
    const csrf = await authJs("GET", "/api/auth/csrf");
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const res = await authJs("POST", "/api/auth/callback/password", {
      cookie: cookiePairs(csrf),
      body: new URLSearchParams({
        csrfToken,
        email: "nobody@example.com",
        password: "wrong password 1",
      }).toString(),
    });
    expect(res.headers.get("location")).toMatch(ON_APP_URL);
  });
});

describe("API answers under an https APP_URL", () => {
  it("carry HSTS", async () => {
    const builder = await createBuilder();
    const res = await call(current.GET, {
      method: "GET",
      path: "/api/live_api/account/current",
      token: builder.token,
    });
    expect(res.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
  });
});
