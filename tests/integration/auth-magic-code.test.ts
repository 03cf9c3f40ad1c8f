import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import * as nextAuthRoute from "@/app/api/auth/[...nextauth]/route";
import * as magicLink from "@/app/api/identity/sign-in-with-magic-link/route";
import * as create from "@/app/api/live_api/account/create/route";
import * as current from "@/app/api/live_api/account/current/route";
import * as sendMagic from "@/app/api/live_api/account/sendMagicLink/route";
import * as validate from "@/app/api/live_api/account/validateOtp/route";
import { findUserByEmail } from "@/db/queries/users";
import type { App } from "@/db/schema";
import { redeemCustomToken } from "@/lib/auth/custom-token";
import { sessionCookieName } from "@/lib/auth/session-token";
import { MAGIC_CODE_MAX_ATTEMPTS, MAIL_SENDS_PER_ADDRESS, MAIL_SENDS_PER_IP } from "@/lib/constants";
import { messages } from "@/lib/messages";
import {
  createBuilder,
  createDraftApp,
  createEndUser,
  createPublishedApp,
  disableUser,
  expireCodesOf,
  fromIp,
  lastMailTo,
  lifetimeOfLatestCode,
  linkIn,
  mailsTo,
  oobCodeIn,
  randomIp,
  sixDigitCodeIn,
  uniqueEmail,
  withJobQueueDown,
} from "../support/factories";
import { call } from "../support/http";

const APP_URL = "http://localhost:3000";

type OtpAnswer = { customToken: string; tenantId: string; error?: { code: string; message: string } };

const send = (appId: string, body: Record<string, unknown>, ip = randomIp()) =>
  call(sendMagic.POST, {
    path: `/api/live_api/account/sendMagicLink?appId=${encodeURIComponent(appId)}`,
    body,
    headers: fromIp(ip),
  });

const validateOtp = (appId: string, email: string, otp: string) =>
  call<OtpAnswer>(validate.POST, {
    path: `/api/live_api/account/validateOtp?appId=${encodeURIComponent(appId)}`,
    body: { email, otp },
    headers: fromIp(),
  });

const signInWithLink = (oobCode: string) =>
  call<OtpAnswer & { continueUrl: string }>(magicLink.POST, {
    path: "/api/identity/sign-in-with-magic-link",
    body: { oobCode },
    headers: fromIp(),
  });

/** A 6-digit code that is certainly not `code`. */
const wrong = (code: string, n = 1) => String((Number(code) + n) % 1_000_000).padStart(6, "0");

const invalidCode = { error: { code: "INVALID_CODE", message: messages.otpInvalid } };
const attemptsExceeded = { error: { code: "ATTEMPTS_EXCEEDED", message: messages.otpAttemptsExceeded } };
const linkInvalid = { error: { code: "auth/invalid-action-code", message: messages.magicLinkInvalid } };

let appA: App;
let appB: App;

beforeAll(async () => {
  const ownerA = await createBuilder();
  const ownerB = await createBuilder();
  appA = await createPublishedApp(ownerA.account.accountId, "App A");
  appB = await createPublishedApp(ownerB.account.accountId, "App B");
});

async function codeFor(email: string, app = appA) {
  const res = await send(app.id, { email });
  expect(res.status).toBe(200);
  const mail = await lastMailTo(email);
  return { mail, code: sixDigitCodeIn(mail), oobCode: oobCodeIn(mail) };
}

describe("sendMagicLink", () => {
  it("mails a 6-digit code and a sign-in link built on APP_URL, valid 10 minutes", async () => {
    const email = uniqueEmail("magic");
    const res = await send(appA.id, { email });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ sent: true });
    const mail = await lastMailTo(email);
    expect(sixDigitCodeIn(mail)).toMatch(/^\d{6}$/);
    const link = linkIn(mail);
    expect(link.origin).toBe(APP_URL);
    expect(link.pathname).toBe("/auth/handler");
    expect(link.searchParams.get("mode")).toBe("signIn");
    expect(link.searchParams.get("appId")).toBe(appA.id);
    expect(link.searchParams.get("continueUrl")).toBe(`/app/${appA.id}`);
    expect(await lifetimeOfLatestCode(email, "magic_code")).toBeCloseTo(600, -1);
  });

  it("answers 'Invalid email address' to a malformed address", async () => {
    for (const email of ["nope", "a@", ""]) {
      const res = await send(appA.id, { email });
      expect(res.status, email).toBe(400);
      expect(res.json).toEqual({
        error: { code: "auth/invalid-email", message: messages.magicEmailInvalid },
      });
    }
  });

  it("answers 404 for an unknown or unpublished app", async () => {
    const owner = await createBuilder();
    const draft = await createDraftApp(owner.account.accountId);
    for (const appId of [draft.id, crypto.randomUUID(), "not-a-uuid"]) {
      const res = await send(appId, { email: uniqueEmail() });
      expect(res.status, appId).toBe(404);
      expect(res.json).toEqual({ error: { code: "NOT_FOUND", message: messages.appNotFound } });
    }
  });

  it("answers 400 INVALID_INPUT without an appId", async () => {
    const res = await call(sendMagic.POST, {
      path: "/api/live_api/account/sendMagicLink",
      body: { email: uniqueEmail() },
      headers: fromIp(),
    });
    expect(res.status).toBe(400);
    expect(res.json.error?.code).toBe("INVALID_INPUT");
  });

  it("limits resends per address", async () => {
    const email = uniqueEmail("resend");
    for (let i = 0; i < MAIL_SENDS_PER_ADDRESS; i++)
      expect((await send(appA.id, { email })).status).toBe(200);
    const res = await send(appA.id, { email });
    expect(res.status).toBe(429);
    expect(res.json).toEqual({ error: { code: "RATE_LIMITED", message: messages.tooManyRequests } });
    expect(await mailsTo(email)).toHaveLength(MAIL_SENDS_PER_ADDRESS);
  });

  it("limits sends per IP across addresses", async () => {
    const ip = randomIp();
    for (let i = 0; i < MAIL_SENDS_PER_IP; i++) {
      expect((await send(appA.id, { email: uniqueEmail(`ip${i}`) }, ip)).status).toBe(200);
    }
    const email = uniqueEmail("one-too-many");
    const res = await send(appA.id, { email }, ip);
    expect(res.status).toBe(429);
    expect(res.json.error?.message).toBe(messages.tooManyRequests);
    expect(await mailsTo(email)).toHaveLength(0);
    expect((await send(appA.id, { email })).status).toBe(200);
  });

  it.each([
    "https://evil.com/",
    "//evil.com",
    "/\\evil.com",
    "javascript:alert(1)",
    `${APP_URL}.evil.com/`,
    "/.//evil.com",
  ])("never carries a foreign continueUrl (%s)", async (continueUrl) => {
    const email = uniqueEmail("redir");
    expect((await send(appA.id, { email, continueUrl })).status).toBe(200);
    const mail = await lastMailTo(email);
    expect(linkIn(mail).origin).toBe(APP_URL);
    expect(linkIn(mail).searchParams.get("continueUrl")).toBe(`/app/${appA.id}`);
    const res = await signInWithLink(oobCodeIn(mail));
    expect(res.json.continueUrl).toBe(`/app/${appA.id}`);
  });

  it("keeps a same-origin continueUrl", async () => {
    const email = uniqueEmail("keep");
    const continueUrl = `/app/${appA.id}/tool/summary?x=1`;
    expect((await send(appA.id, { email, continueUrl })).status).toBe(200);
    const res = await signInWithLink(oobCodeIn(await lastMailTo(email)));
    expect(res.json.continueUrl).toBe(continueUrl);
  });

  it("answers 'Failed to send magic link. Please try again.' when the mail cannot be queued", async () => {
    // The job queue refuses the job: the request can't promise a mail.
    await withJobQueueDown(async () => {
      const res = await send(appA.id, { email: uniqueEmail() });
      expect(res.status).toBe(500);
      expect(res.json).toEqual({ error: { code: "auth/send-failed", message: messages.magicSendFailed } });
    });
  });
});

describe("validateOtp", () => {
  it("answers { customToken, tenantId } for the right code and creates a verified end user of the app", async () => {
    const email = uniqueEmail("otp");
    const { code } = await codeFor(email);
    const res = await validateOtp(appA.id, email, code);
    expect(res.status).toBe(200);
    expect(res.json.tenantId).toBe(appA.id);
    expect(typeof res.json.customToken).toBe("string");
    const user = await findUserByEmail(appA.id, email);
    expect(user?.emailVerifiedAt).toBeInstanceOf(Date);
    expect(await findUserByEmail(null, email)).toBeUndefined();

    const signedIn = await redeemCustomToken(res.json.customToken);
    expect(signedIn).toMatchObject({ id: user!.id, tenantId: appA.id, email });
    expect(signedIn?.emailVerifiedAt).toBeInstanceOf(Date);
    // A custom token is single use.
    expect(await redeemCustomToken(res.json.customToken)).toBeNull();
  });

  it("signs in an existing end user of the app", async () => {
    const endUser = await createEndUser(appA.id);
    const { code } = await codeFor(endUser.user.email);
    const res = await validateOtp(appA.id, endUser.user.email, code);
    expect((await redeemCustomToken(res.json.customToken))?.id).toBe(endUser.user.id);
  });

  it("answers 400 to a wrong code, and 429 ATTEMPTS_EXCEEDED at the fifth; then even the right code is refused", async () => {
    const email = uniqueEmail("guess");
    const { code, oobCode } = await codeFor(email);
    for (let i = 1; i < MAGIC_CODE_MAX_ATTEMPTS; i++) {
      const res = await validateOtp(appA.id, email, wrong(code, i));
      expect(res.status).toBe(400);
      expect(res.json).toEqual(invalidCode);
    }
    const fifth = await validateOtp(appA.id, email, wrong(code, MAGIC_CODE_MAX_ATTEMPTS));
    expect(fifth.status).toBe(429);
    expect(fifth.json).toEqual(attemptsExceeded);
    const right = await validateOtp(appA.id, email, code);
    expect(right.status).toBe(429);
    expect(right.json).toEqual(attemptsExceeded);
    // The link of the dead code is dead too.
    expect((await signInWithLink(oobCode)).json).toEqual(linkInvalid);
  });

  it("a code is single use", async () => {
    const email = uniqueEmail("once");
    const { code } = await codeFor(email);
    expect((await validateOtp(appA.id, email, code)).status).toBe(200);
    const again = await validateOtp(appA.id, email, code);
    expect(again.status).toBe(400);
    expect(again.json).toEqual(invalidCode);
  });

  it("a code expires (after its 10 minutes)", async () => {
    const email = uniqueEmail("late");
    const { code } = await codeFor(email);
    await expireCodesOf(email);
    const res = await validateOtp(appA.id, email, code);
    expect(res.status).toBe(400);
    expect(res.json).toEqual(invalidCode);
  });

  it("a code works only in its own app", async () => {
    const email = uniqueEmail("cross");
    const { code } = await codeFor(email, appA);
    const elsewhere = await validateOtp(appB.id, email, code);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.json).toEqual(invalidCode);
    // Even when the address also has a live code in the other app.
    await codeFor(email, appB);
    expect((await validateOtp(appB.id, email, code)).status).toBe(400);
    expect((await validateOtp(appA.id, email, code)).status).toBe(200);
  });

  it("a resend leaves the older code valid (a stranger's request cannot void the owner's), and a sign-in ends them all", async () => {
    const email = uniqueEmail("resent");
    const first = await codeFor(email);
    const second = await codeFor(email);
    expect((await validateOtp(appA.id, email, first.code)).status).toBe(200);
    expect((await signInWithLink(second.oobCode)).json).toEqual(linkInvalid);
    if (first.code !== second.code) {
      expect((await validateOtp(appA.id, email, second.code)).status).toBe(400);
    }
  });

  it("answers 400 when no code was sent, and 404 for an unknown app", async () => {
    expect((await validateOtp(appA.id, uniqueEmail("never"), "123456")).json).toEqual(invalidCode);
    const res = await validateOtp(crypto.randomUUID(), uniqueEmail(), "123456");
    expect(res.status).toBe(404);
    expect(res.json.error?.message).toBe(messages.appNotFound);
  });

  it("refuses a disabled end user with 'User is disabled, contact us for more info'", async () => {
    const endUser = await createEndUser(appA.id);
    await disableUser(endUser.user.id);
    const { code } = await codeFor(endUser.user.email);
    const res = await validateOtp(appA.id, endUser.user.email, code);
    expect(res.status).toBe(403);
    expect(res.json.error).toEqual({ code: "auth/user-disabled", message: messages.userDisabled });
  });
});

describe("magic link: POST /api/identity/sign-in-with-magic-link", () => {
  it("works once, then answers 'Invalid or expired magic link'", async () => {
    const email = uniqueEmail("link");
    const { oobCode, code } = await codeFor(email);
    const first = await signInWithLink(oobCode);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ tenantId: appA.id, continueUrl: `/app/${appA.id}` });
    const signedIn = await redeemCustomToken(first.json.customToken);
    expect(signedIn?.tenantId).toBe(appA.id);

    const second = await signInWithLink(oobCode);
    expect(second.status).toBe(400);
    expect(second.json).toEqual(linkInvalid);
    // The code of a used link is used too.
    expect((await validateOtp(appA.id, email, code)).status).toBe(400);
  });

  it("answers 'Invalid or expired magic link' to an expired or garbage link", async () => {
    const email = uniqueEmail("stale");
    const { oobCode } = await codeFor(email);
    await expireCodesOf(email);
    for (const c of [oobCode, "garbage"]) {
      const res = await signInWithLink(c);
      expect(res.status).toBe(400);
      expect(res.json).toEqual(linkInvalid);
    }
  });
});

describe("custom token → Auth.js session → API", () => {
  it("the custom token signs a browser in once through the 'token' provider, and the cookie works on the API", async () => {
    const email = uniqueEmail("browser");
    const { code } = await codeFor(email);
    const { customToken } = (await validateOtp(appA.id, email, code)).json;

    const csrf = await nextAuthRoute.GET(new NextRequest(`${APP_URL}/api/auth/csrf`));
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const csrfCookie = csrf.headers
      .getSetCookie()
      .map((c) => c.split(";")[0]!)
      .join("; ");

    const signInWith = (token: string) =>
      nextAuthRoute.POST(
        new NextRequest(`${APP_URL}/api/auth/callback/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
          body: new URLSearchParams({
            csrfToken,
            customToken: token,
            callbackUrl: `${APP_URL}/home`,
          }).toString(),
        }),
      );

    const ok = await signInWith(customToken);
    const session = ok.headers
      .getSetCookie()
      .find((c) => c.startsWith(`${sessionCookieName()}=`))
      ?.split(";")[0];
    expect(session, "a session cookie is set").toBeTruthy();
    const created = await call(create.POST, { path: "/api/live_api/account/create", cookie: session });
    expect(created.status).toBe(200);
    const me = await call(current.GET, {
      method: "GET",
      path: "/api/live_api/account/current",
      cookie: session,
    });
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ email, accountType: "other", appId: appA.id, appHeader: "App A" });

    const replay = await signInWith(customToken);
    expect(replay.status).toBe(302);
    expect(replay.headers.get("location")).toContain("error=");
    expect(replay.headers.getSetCookie().some((c) => c.startsWith(`${sessionCookieName()}=`))).toBe(false);
  });
});
