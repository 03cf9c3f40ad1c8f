import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as nextAuthRoute from "@/app/api/auth/[...nextauth]/route";
import * as checkResetCode from "@/app/api/identity/check-reset-code/route";
import * as resetPasswordRoute from "@/app/api/identity/reset-password/route";
import * as signIn from "@/app/api/identity/sign-in-with-password/route";
import * as current from "@/app/api/live_api/account/current/route";
import * as sendReset from "@/app/api/live_api/account/sendResetPasswordEmail/route";
import { db } from "@/db/client";
import { MAIL_SENDS_PER_ADDRESS } from "@/lib/constants";
import { messages } from "@/lib/messages";
import {
  createBuilder,
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
  STRONG_PASSWORD,
  uniqueEmail,
  withJobQueueDown,
} from "../support/factories";
import { call } from "../support/http";

const APP_URL = "http://localhost:3000";
const NEW_PASSWORD = "a brand new passphrase 7";

const requestReset = (body: Record<string, unknown>) =>
  call(sendReset.POST, { path: "/api/live_api/account/sendResetPasswordEmail", body, headers: fromIp() });

const reset = (oobCode: string, newPassword = NEW_PASSWORD) =>
  call(resetPasswordRoute.POST, {
    path: "/api/identity/reset-password",
    body: { oobCode, newPassword },
    headers: fromIp(),
  });

const check = (oobCode: string) =>
  call(checkResetCode.POST, { path: "/api/identity/check-reset-code", body: { oobCode }, headers: fromIp() });

const login = (email: string, password: string, appId?: string) =>
  call(signIn.POST, {
    path: "/api/identity/sign-in-with-password",
    body: { email, password, appId },
    headers: fromIp(),
  });

const linkInvalid = { error: { code: "auth/invalid-action-code", message: messages.resetLinkInvalid } };

async function resetLinkFor(email: string, extra: Record<string, unknown> = {}) {
  const res = await requestReset({ email, ...extra });
  expect(res.status).toBe(200);
  return lastMailTo(email);
}

describe("password reset request: POST /api/live_api/account/sendResetPasswordEmail", () => {
  it("answers the same for an existing and an unknown email, and mails only the existing one", async () => {
    const builder = await createBuilder();
    const unknown = uniqueEmail("nobody");
    const known = await requestReset({ email: builder.user.email });
    const notKnown = await requestReset({ email: unknown });
    expect(known.status).toBe(200);
    expect(notKnown.status).toBe(known.status);
    expect(notKnown.json).toEqual(known.json);
    expect(await mailsTo(builder.user.email)).toHaveLength(1);
    expect(await mailsTo(unknown)).toHaveLength(0);
  });

  it("answers the same for a disabled user, without mailing a link", async () => {
    const builder = await createBuilder({ disabled: true });
    const res = await requestReset({ email: builder.user.email });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ sent: true });
    expect(await mailsTo(builder.user.email)).toHaveLength(0);
  });

  it("mails a link built on APP_URL that lives 1 hour", async () => {
    const builder = await createBuilder();
    const mail = await resetLinkFor(builder.user.email);
    const link = linkIn(mail);
    expect(link.origin).toBe(APP_URL);
    expect(link.pathname).toBe("/auth/handler");
    expect(link.searchParams.get("mode")).toBe("resetPassword");
    expect(link.searchParams.get("continueUrl")).toBe("/login");
    expect(await lifetimeOfLatestCode(builder.user.email, "reset_password")).toBeCloseTo(3600, -1);
  });

  it("answers 'This email is invalid' to a malformed email (which reveals nothing about accounts)", async () => {
    const res = await requestReset({ email: "not-an-email" });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: { code: "auth/invalid-email", message: messages.emailInvalid } });
  });

  it.each(["https://evil.com/login", "//evil.com", "/\\evil.com", "javascript:alert(1)", "/..//evil.com"])(
    "never carries a foreign continueUrl (%s)",
    async (continueUrl) => {
      const builder = await createBuilder();
      const mail = await resetLinkFor(builder.user.email, { continueUrl });
      expect(linkIn(mail).origin).toBe(APP_URL);
      expect(linkIn(mail).searchParams.get("continueUrl")).toBe("/login");
      const res = await reset(oobCodeIn(mail));
      expect(res.json).toEqual({ continueUrl: "/login" });
    },
  );

  it("keeps a same-origin continueUrl", async () => {
    const builder = await createBuilder();
    const mail = await resetLinkFor(builder.user.email, { continueUrl: "/build/app/1?x=1" });
    expect(linkIn(mail).searchParams.get("continueUrl")).toBe("/build/app/1?x=1");
    expect((await reset(oobCodeIn(mail))).json).toEqual({ continueUrl: "/build/app/1?x=1" });
  });

  it("limits sends per address", async () => {
    const builder = await createBuilder();
    for (let i = 0; i < MAIL_SENDS_PER_ADDRESS; i++)
      expect((await requestReset({ email: builder.user.email })).status).toBe(200);
    const res = await requestReset({ email: builder.user.email });
    expect(res.status).toBe(429);
    expect(res.json.error).toEqual({ code: "RATE_LIMITED", message: messages.tooManyRequests });
  });

  it("answers 'Something went wrong sending password reset email...' when the mail cannot be queued", async () => {
    const builder = await createBuilder();
    // The job queue refuses the job: the request can't promise a mail.
    await withJobQueueDown(async () => {
      const res = await requestReset({ email: builder.user.email });
      expect(res.status).toBe(500);
      expect(res.json).toEqual({ error: { code: "auth/send-failed", message: messages.resetSendFailed } });
    });
  });
});

describe("password reset: POST /api/identity/reset-password", () => {
  it("sets the new password once: the old one stops working, older sessions end, the link dies", async () => {
    const builder = await createBuilder();
    const mail = await resetLinkFor(builder.user.email);
    const oobCode = oobCodeIn(mail);

    expect((await check(oobCode)).json).toEqual({ email: builder.user.email });
    const done = await reset(oobCode);
    expect(done.status).toBe(200);
    expect(done.json).toEqual({ continueUrl: "/login" });

    expect((await login(builder.user.email, STRONG_PASSWORD)).json.error?.message).toBe(
      messages.invalidCredentials,
    );
    expect((await login(builder.user.email, NEW_PASSWORD)).status).toBe(200);

    // The bearer token issued before the reset carries the old session version.
    const stale = await call(current.GET, {
      method: "GET",
      path: "/api/live_api/account/current",
      token: builder.token,
    });
    expect(stale.status).toBe(401);
    const staleCookie = await call(current.GET, {
      method: "GET",
      path: "/api/live_api/account/current",
      cookie: builder.cookie,
    });
    expect(staleCookie.status).toBe(401);
    // Auth.js's own session endpoint refuses the old cookie too, and clears it.
    const authSession = await call<unknown>(nextAuthRoute.GET, {
      method: "GET",
      path: "/api/auth/session",
      cookie: builder.cookie,
    });
    expect(authSession.json).toBeNull();
    expect(authSession.headers.get("set-cookie") ?? "").toMatch(/authjs\.session-token=;/);

    const again = await reset(oobCode, "yet another passphrase 8");
    expect(again.status).toBe(400);
    expect(again.json).toEqual(linkInvalid);
    expect((await check(oobCode)).json).toEqual(linkInvalid);
  });

  it("answers 'Link invalid, try to reset your password again.' for expired and garbage links", async () => {
    const builder = await createBuilder();
    const mail = await resetLinkFor(builder.user.email);
    await expireCodesOf(builder.user.email);
    for (const oobCode of [oobCodeIn(mail), "garbage", "x".repeat(200)]) {
      const res = await reset(oobCode);
      expect(res.status, oobCode).toBe(400);
      expect(res.json).toEqual(linkInvalid);
      expect((await check(oobCode)).json).toEqual(linkInvalid);
    }
    expect((await login(builder.user.email, STRONG_PASSWORD)).status).toBe(200);
  });

  it("a reset kills the other reset links of the user", async () => {
    const builder = await createBuilder();
    const first = oobCodeIn(await resetLinkFor(builder.user.email));
    const second = oobCodeIn(await resetLinkFor(builder.user.email));
    expect((await reset(second)).status).toBe(200);
    expect((await reset(first, "another fine passphrase 1")).json).toEqual(linkInvalid);
  });

  it("answers 'Password is too weak, please try again' and leaves the link usable", async () => {
    const builder = await createBuilder();
    const oobCode = oobCodeIn(await resetLinkFor(builder.user.email));
    for (const weak of ["password", "short1!", "a".repeat(129), `Xk9#qL2v${"z".repeat(121)}`]) {
      const res = await reset(oobCode, weak);
      expect(res.status).toBe(400);
      expect(res.json).toEqual({
        error: { code: "auth/weak-password", message: messages.resetPasswordTooWeak },
      });
    }
    expect((await reset(oobCode)).status).toBe(200);
  });

  it("answers 'User not found or disabled' when the user was disabled after the link was sent", async () => {
    const builder = await createBuilder();
    const oobCode = oobCodeIn(await resetLinkFor(builder.user.email));
    await disableUser(builder.user.id);
    const res = await reset(oobCode);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: { code: "auth/user-not-found", message: messages.resetUserNotFound } });
  });

  it("answers 'Error resetting password!' when saving the new password fails", async () => {
    const builder = await createBuilder();
    const oobCode = oobCodeIn(await resetLinkFor(builder.user.email));
    await db().execute(
      sql.raw(`
      CREATE FUNCTION test_refuse_password_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused by test'; END $$;
      CREATE TRIGGER test_refuse_password_change BEFORE UPDATE OF password_hash ON users
      FOR EACH ROW EXECUTE FUNCTION test_refuse_password_change();`),
    );
    try {
      const res = await reset(oobCode);
      expect(res.status).toBe(500);
      expect(res.json).toEqual({ error: { code: "auth/reset-failed", message: messages.resetError } });
    } finally {
      await db().execute(
        sql.raw(`DROP TRIGGER test_refuse_password_change ON users;
                 DROP FUNCTION test_refuse_password_change();`),
      );
    }
    // Nothing was half-done: the link still works and the old password too until it is used.
    expect((await login(builder.user.email, STRONG_PASSWORD)).status).toBe(200);
    expect((await reset(oobCode)).status).toBe(200);
  });

  it("resets an end user within their app only", async () => {
    const owner = await createBuilder();
    const app = await createPublishedApp(owner.account.accountId);
    const email = uniqueEmail("shared");
    await createBuilder({ email });
    await createEndUser(app.id, { email });
    const mail = await resetLinkFor(email, { mainAppId: app.id });
    expect((await reset(oobCodeIn(mail))).status).toBe(200);
    expect((await login(email, NEW_PASSWORD, app.id)).status).toBe(200);
    // The builder with the same address keeps the old password.
    expect((await login(email, STRONG_PASSWORD)).status).toBe(200);
  });
});
