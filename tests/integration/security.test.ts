import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import * as requestChange from "@/app/api/identity/request-email-change/route";
import * as sendVerification from "@/app/api/identity/send-verification-email/route";
import * as signIn from "@/app/api/identity/sign-in-with-password/route";
import * as signUp from "@/app/api/identity/sign-up/route";
import * as token from "@/app/api/identity/token/route";
import * as create from "@/app/api/live_api/account/create/route";
import * as current from "@/app/api/live_api/account/current/route";
import * as sendMagic from "@/app/api/live_api/account/sendMagicLink/route";
import * as sendReset from "@/app/api/live_api/account/sendResetPasswordEmail/route";
import { messages } from "@/lib/messages";
import {
  createBuilder,
  createPublishedApp,
  fromIp,
  lastMailTo,
  linkIn,
  randomIp,
  STRONG_PASSWORD,
  uniqueEmail,
} from "../support/factories";
import { call } from "../support/http";

const APP_URL = process.env.APP_URL ?? "http://localhost:3000";

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** A request as an attacker can shape it: any Host, any forwarded host, any URL base. */
async function hostileCall(
  handler: Handler,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const req = new NextRequest(new URL(path, "http://evil.com"), {
    method: "POST",
    headers: {
      host: "evil.com",
      "x-forwarded-host": "evil.com",
      "x-forwarded-proto": "https",
      "x-forwarded-for": randomIp(),
      ...fromIp(),
      "content-type": "application/json",
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const res = await handler(req, { params: Promise.resolve({}) });
  return { status: res.status, json: await res.json() };
}

describe("Host header injection: every mailed link is built from APP_URL", () => {
  it("sendResetPasswordEmail", async () => {
    const builder = await createBuilder();
    const res = await hostileCall(sendReset.POST, "/api/live_api/account/sendResetPasswordEmail", {
      email: builder.user.email,
      continueUrl: "https://evil.com/steal",
    });
    expect(res.status).toBe(200);
    const mail = await lastMailTo(builder.user.email);
    expect(linkIn(mail).href.startsWith(`${APP_URL}/`)).toBe(true);
    expect(mail.text).not.toContain("evil.com");
    expect(mail.html).not.toContain("evil.com");
  });

  it("sendMagicLink", async () => {
    const owner = await createBuilder();
    const app = await createPublishedApp(owner.account.accountId);
    const email = uniqueEmail("magic");
    const res = await hostileCall(sendMagic.POST, `/api/live_api/account/sendMagicLink?appId=${app.id}`, {
      email,
      continueUrl: "https://evil.com/steal",
    });
    expect(res.status).toBe(200);
    const mail = await lastMailTo(email);
    expect(linkIn(mail).href.startsWith(`${APP_URL}/`)).toBe(true);
    expect(mail.text).not.toContain("evil.com");
  });

  it("send-verification-email and request-email-change", async () => {
    const builder = await createBuilder({ verified: false });
    const auth = { authorization: `Bearer ${builder.token}` };
    const v = await hostileCall(
      sendVerification.POST,
      "/api/identity/send-verification-email",
      { continueUrl: "https://evil.com/" },
      auth,
    );
    expect(v.status).toBe(200);
    const verifyMail = await lastMailTo(builder.user.email);
    expect(linkIn(verifyMail).href.startsWith(`${APP_URL}/`)).toBe(true);
    expect(verifyMail.text).not.toContain("evil.com");

    const newEmail = uniqueEmail("newaddr");
    const c = await hostileCall(
      requestChange.POST,
      "/api/identity/request-email-change",
      { newEmail, currentPassword: STRONG_PASSWORD },
      auth,
    );
    expect(c.status).toBe(200);
    expect(linkIn(await lastMailTo(newEmail)).href.startsWith(`${APP_URL}/`)).toBe(true);
  });
});

describe("account enumeration", () => {
  it("the reset request answers identically for an existing and an unknown email", async () => {
    const builder = await createBuilder();
    const ip = randomIp();
    const ask = (email: string) =>
      call(sendReset.POST, {
        path: "/api/live_api/account/sendResetPasswordEmail",
        body: { email },
        headers: fromIp(ip),
      });
    const a = await ask(builder.user.email);
    const b = await ask(uniqueEmail("ghost"));
    expect(b.status).toBe(a.status);
    expect(b.json).toEqual(a.json);
    expect([...b.headers.keys()].sort()).toEqual([...a.headers.keys()].sort());
  });

  it("the login answers identically for a wrong password and an unknown email", async () => {
    const builder = await createBuilder();
    const ask = (email: string) =>
      call(signIn.POST, {
        path: "/api/identity/sign-in-with-password",
        body: { email, password: "not the password 1" },
        headers: fromIp(),
      });
    const a = await ask(builder.user.email);
    const b = await ask(uniqueEmail("ghost"));
    expect(a.status).toBe(401);
    expect(b.status).toBe(a.status);
    expect(b.json).toEqual(a.json);
  });
});

describe("cross-site requests authenticated by the cookie", () => {
  const crossSite = { error: { code: "CROSS_SITE", message: messages.crossSite } };

  it.each<Record<string, string>>([
    { "sec-fetch-site": "cross-site" },
    { "sec-fetch-site": "same-site" },
    { origin: "https://evil.com" },
    { origin: "null" },
    { origin: "http://localhost:3000.evil.com" },
  ])("refuses a cookie-authenticated POST with %o: 403 CROSS_SITE", async (headers) => {
    const builder = await createBuilder();
    for (const [handler, path] of [
      [token.POST, "/api/identity/token"],
      [create.POST, "/api/live_api/account/create"],
      [signUp.POST, "/api/identity/sign-up"],
    ] as const) {
      const res = await call(handler, {
        path,
        cookie: builder.cookie,
        headers,
        body: { email: uniqueEmail(), password: STRONG_PASSWORD },
      });
      expect(res.status, path).toBe(403);
      expect(res.json).toEqual(crossSite);
    }
  });

  it("accepts the same requests with a bearer token", async () => {
    const builder = await createBuilder();
    const hostile: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site" },
      { origin: "https://evil.com" },
    ];
    for (const headers of hostile) {
      const res = await call(token.POST, { path: "/api/identity/token", token: builder.token, headers });
      expect(res.status).toBe(200);
      expect(typeof res.json.token).toBe("string");
      const acct = await call(create.POST, {
        path: "/api/live_api/account/create",
        token: builder.token,
        headers,
      });
      expect(acct.status).toBe(200);
    }
  });

  it("accepts a cookie-authenticated POST from our own origin", async () => {
    const builder = await createBuilder();
    const ours: Record<string, string>[] = [
      { "sec-fetch-site": "same-origin", origin: APP_URL },
      { "sec-fetch-site": "none" },
      {},
    ];
    for (const headers of ours) {
      const res = await call(token.POST, { path: "/api/identity/token", cookie: builder.cookie, headers });
      expect(res.status).toBe(200);
    }
  });

  it("lets a cross-site GET through (reads change nothing)", async () => {
    const builder = await createBuilder();
    const res = await call(current.GET, {
      method: "GET",
      path: "/api/live_api/account/current",
      cookie: builder.cookie,
      headers: { "sec-fetch-site": "cross-site", origin: "https://evil.com" },
    });
    expect(res.status).toBe(200);
  });
});

describe("bad input never gives a 500", () => {
  it.each(["{", "not json", '{"email": }', "\u0000"])("malformed JSON %j → 400", async (rawBody) => {
    const res = await call(signUp.POST, {
      path: "/api/identity/sign-up",
      rawBody,
      headers: { "content-type": "application/json", ...fromIp() },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toEqual({ code: "INVALID_JSON", message: messages.invalidInput });
  });

  it.each([
    ["a number for the email", { email: 42, password: STRONG_PASSWORD }],
    ["a missing password", { email: "a@example.com" }],
    ["a null body", null],
    ["an array body", []],
    ["a 2000-character password", { email: "a@example.com", password: "x".repeat(2000) }],
    ["a 400-character email", { email: `${"a".repeat(390)}@example.com`, password: STRONG_PASSWORD }],
  ])("zod refuses %s → 400 INVALID_INPUT", async (_label, body) => {
    const res = await call(signUp.POST, {
      path: "/api/identity/sign-up",
      body,
      headers: fromIp(),
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "INVALID_INPUT", message: messages.invalidInput });
  });

  it("a bad query string → 400 INVALID_INPUT", async () => {
    const res = await call(sendMagic.POST, {
      path: "/api/live_api/account/sendMagicLink?appId=",
      body: { email: uniqueEmail() },
      headers: fromIp(),
    });
    expect(res.status).toBe(400);
    expect(res.json.error?.code).toBe("INVALID_INPUT");
  });
});
