import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as changePasswordRoute from "@/app/api/identity/change-password/route";
import * as resetPassword from "@/app/api/identity/reset-password/route";
import * as oneSession from "@/app/api/identity/sessions/[sessionId]/route";
import * as sessions from "@/app/api/identity/sessions/route";
import * as token from "@/app/api/identity/token/route";
import * as current from "@/app/api/live_api/account/current/route";
import * as sendReset from "@/app/api/live_api/account/sendResetPasswordEmail/route";
import { db } from "@/db/client";
import { decodeSessionToken } from "@/lib/auth/session-token";
import { SESSION_IDLE_S } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { authJsSignIn, authJsSignOut } from "../support/auth-js";
import {
  createBuilder,
  createEndUser,
  createPublishedApp,
  disableUser,
  fromIp,
  lastMailTo,
  oobCodeIn,
  STRONG_PASSWORD,
  tokenFor,
} from "../support/factories";
import { call } from "../support/http";

const me = (auth: { token?: string; cookie?: string }) =>
  call(current.GET, { method: "GET", path: "/api/live_api/account/current", ...auth });
const refresh = (auth: { token?: string; cookie?: string }) =>
  call<{ token: string; expiresAt: string }>(token.POST, { path: "/api/identity/token", ...auth });
const sidOf = async (bearer: string) => (await decodeSessionToken(bearer))!.sid;

async function signedInBrowser() {
  const builder = await createBuilder();
  const cookie = await authJsSignIn(
    "password",
    { email: builder.user.email, password: STRONG_PASSWORD },
    fromIp(),
  );
  expect(cookie, "the login form's sign-in sets a session cookie").toBeTruthy();
  return { builder, cookie: cookie! };
}

describe("logout ends the session at once", () => {
  it("the old cookie and every bearer token issued for it stop working; the token route refreshes nothing", async () => {
    const { cookie } = await signedInBrowser();
    const bearer = (await refresh({ cookie })).json.token;
    const refreshed = (await refresh({ token: bearer })).json.token;
    expect((await me({ cookie })).status).toBe(200);
    expect((await me({ token: refreshed })).status).toBe(200);

    await authJsSignOut(cookie);

    expect((await me({ cookie })).status).toBe(401);
    expect((await me({ token: bearer })).status).toBe(401);
    expect((await me({ token: refreshed })).status).toBe(401);
    expect((await refresh({ token: refreshed })).status).toBe(401);
  });

  it("ends only that session: the same user's other device stays signed in", async () => {
    const { builder, cookie } = await signedInBrowser();
    const otherDevice = await tokenFor(builder.user);
    await authJsSignOut(cookie);
    expect((await me({ token: otherDevice })).status).toBe(200);
  });
});

describe("sessions have an idle and an absolute lifetime", () => {
  it("a refreshed bearer token never outlives the session's absolute end, and nothing works after it", async () => {
    const builder = await createBuilder();
    const bearer = await tokenFor(builder.user);
    const sid = await sidOf(bearer);
    await db().execute(sql`UPDATE sessions SET expires_at = now() + interval '10 minutes' WHERE id = ${sid}`);
    const res = await refresh({ token: bearer });
    expect(res.status).toBe(200);
    const ends = Date.now() + 10 * 60_000;
    expect(new Date(res.json.expiresAt).getTime()).toBeLessThanOrEqual(ends + 1000);
    const claims = (await decodeSessionToken(res.json.token)) as unknown as { exp: number };
    expect(claims.exp * 1000).toBeLessThanOrEqual(ends + 1000);

    await db().execute(sql`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = ${sid}`);
    expect((await me({ token: bearer })).status).toBe(401);
    expect((await refresh({ token: res.json.token })).status).toBe(401);
  });

  it("a session unused for longer than the idle timeout has ended", async () => {
    const builder = await createBuilder();
    const bearer = await tokenFor(builder.user);
    await db().execute(
      sql`UPDATE sessions SET last_seen_at = now() - make_interval(secs => ${SESSION_IDLE_S + 60}) WHERE id = ${await sidOf(bearer)}`,
    );
    expect((await me({ token: bearer })).status).toBe(401);
  });

  it("use moves the idle clock forward", async () => {
    const builder = await createBuilder();
    const bearer = await tokenFor(builder.user);
    const sid = await sidOf(bearer);
    await db().execute(sql`UPDATE sessions SET last_seen_at = now() - interval '1 day' WHERE id = ${sid}`);
    expect((await me({ token: bearer })).status).toBe(200);
    const r = await db().execute<{ age: number }>(
      sql`SELECT extract(epoch FROM now() - last_seen_at)::float AS age FROM sessions WHERE id = ${sid}`,
    );
    expect(Number(r.rows[0]!.age)).toBeLessThan(60);
  });

  it("a token that names no server-side session is no session", async () => {
    const builder = await createBuilder();
    const bearer = await tokenFor(builder.user);
    await db().execute(sql`DELETE FROM sessions WHERE id = ${await sidOf(bearer)}`);
    expect((await me({ token: bearer })).status).toBe(401);
  });
});

describe("signing out everywhere, and one device at a time", () => {
  it("lists the user's live sessions with the current one marked", async () => {
    const builder = await createBuilder();
    const a = await tokenFor(builder.user);
    const b = await tokenFor(builder.user);
    const res = await call<{ sessions: { id: string; current: boolean; userAgent: string }[] }>(
      sessions.GET,
      {
        method: "GET",
        path: "/api/identity/sessions",
        token: a,
      },
    );
    const ids = res.json.sessions.map((s) => s.id);
    expect(ids).toEqual(expect.arrayContaining([await sidOf(a), await sidOf(b), await sidOf(builder.token)]));
    expect(res.json.sessions.filter((s) => s.current).map((s) => s.id)).toEqual([await sidOf(a)]);
  });

  it("ends one other session of the user, and never somebody else's", async () => {
    const builder = await createBuilder();
    const stranger = await createBuilder();
    const a = await tokenFor(builder.user);
    const b = await tokenFor(builder.user);
    const end = (by: string, sid: string) =>
      call(oneSession.DELETE, {
        method: "DELETE",
        path: `/api/identity/sessions/${sid}`,
        params: { sessionId: sid },
        token: by,
      });
    expect((await end(stranger.token, await sidOf(b))).status).toBe(404);
    expect((await me({ token: b })).status).toBe(200);
    expect((await end(a, await sidOf(b))).status).toBe(200);
    expect((await me({ token: b })).status).toBe(401);
    expect((await me({ token: a })).status).toBe(200);
  });

  it("'sign out everywhere' ends every session of the user, cookies and bearer tokens, and no one else's", async () => {
    const { builder, cookie } = await signedInBrowser();
    const other = await tokenFor(builder.user);
    const someoneElse = await createBuilder();
    const res = await call(sessions.DELETE, {
      method: "DELETE",
      path: "/api/identity/sessions",
      token: other,
    });
    expect(res.status).toBe(200);
    for (const auth of [{ cookie }, { token: other }, { token: builder.token }]) {
      expect((await me(auth)).status).toBe(401);
    }
    expect((await me({ token: someoneElse.token })).status).toBe(200);
  });
});

describe("a password reset ends every session", () => {
  it("cookies and bearer tokens from before the reset stop working", async () => {
    const { builder, cookie } = await signedInBrowser();
    await call(sendReset.POST, {
      path: "/api/live_api/account/sendResetPasswordEmail",
      body: { email: builder.user.email },
      headers: fromIp(),
    });
    const oobCode = oobCodeIn(await lastMailTo(builder.user.email));
    const res = await call(resetPassword.POST, {
      path: "/api/identity/reset-password",
      body: { oobCode, newPassword: "a brand new passphrase 7" },
      headers: fromIp(),
    });
    expect(res.status).toBe(200);
    expect((await me({ cookie })).status).toBe(401);
    expect((await me({ token: builder.token })).status).toBe(401);
  });
});

describe("end users' sessions work the same way", () => {
  it("an end user's logout ends their cookie", async () => {
    const owner = await createBuilder();
    const app = await createPublishedApp(owner.account.accountId);
    const endUser = await createEndUser(app.id);
    const cookie = await authJsSignIn(
      "password",
      { email: endUser.user.email, password: STRONG_PASSWORD, appId: app.id },
      fromIp(),
    );
    expect((await me({ cookie: cookie! })).status).toBe(200);
    await authJsSignOut(cookie!);
    expect((await me({ cookie: cookie! })).status).toBe(401);
  });
});

describe("disabling a user ends their sessions", () => {
  it("signed out at once, and re-enabling the user does not bring an old token back", async () => {
    const builder = await createBuilder();
    await disableUser(builder.user.id);
    expect((await me({ token: builder.token })).status).toBe(401);
    await db().execute(sql`UPDATE users SET disabled_at = NULL WHERE id = ${builder.user.id}`);
    expect((await me({ token: builder.token })).status).toBe(401);
  });
});

describe("changing the password ends every other session", () => {
  const change = (token: string, body: Record<string, unknown>) =>
    call(changePasswordRoute.POST, { path: "/api/identity/change-password", token, body, headers: fromIp() });

  it("keeps the session that changed it, signs out the others, and the new password works", async () => {
    const { builder, cookie } = await signedInBrowser();
    const here = await tokenFor(builder.user);
    const res = await change(here, {
      currentPassword: STRONG_PASSWORD,
      newPassword: "a brand new passphrase 8",
    });
    expect(res.status).toBe(200);
    expect((await me({ token: here })).status).toBe(200);
    expect((await me({ cookie })).status).toBe(401);
    expect((await me({ token: builder.token })).status).toBe(401);
    const again = await authJsSignIn(
      "password",
      { email: builder.user.email, password: "a brand new passphrase 8" },
      fromIp(),
    );
    expect(again).toBeTruthy();
  });

  it("refuses a wrong current password and a weak new one, changing nothing", async () => {
    const builder = await createBuilder();
    const wrong = await change(builder.token, {
      currentPassword: "not it at all 1",
      newPassword: "a brand new passphrase 8",
    });
    expect(wrong.json.error).toEqual({ code: "auth/wrong-password", message: messages.currentPasswordWrong });
    const weak = await change(builder.token, { currentPassword: STRONG_PASSWORD, newPassword: "password" });
    expect(weak.json.error).toEqual({ code: "auth/weak-password", message: messages.passwordTooWeak });
    expect((await me({ token: builder.token })).status).toBe(200);
  });
});
