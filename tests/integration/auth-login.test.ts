import { describe, expect, it } from "vitest";
import * as signIn from "@/app/api/identity/sign-in-with-password/route";
import * as current from "@/app/api/live_api/account/current/route";
import {
  LOGIN_FAILURES_PER_ACCOUNT,
  LOGIN_FAILURES_PER_ACCOUNT_AND_IP,
  LOGIN_FAILURES_PER_IP,
} from "@/lib/constants";
import { messages } from "@/lib/messages";
import {
  createBuilder,
  createEndUser,
  createPublishedApp,
  fromIp,
  randomIp,
  STRONG_PASSWORD,
  uniqueEmail,
} from "../support/factories";
import { call } from "../support/http";

type TokenAnswer = { token: string; expiresAt: string; tenantId: string | null };

const login = (body: Record<string, unknown>, ip = randomIp()) =>
  call<TokenAnswer & { error?: { code: string; message: string } }>(signIn.POST, {
    path: "/api/identity/sign-in-with-password",
    body,
    headers: fromIp(ip),
  });

const getCurrent = (auth: { token?: string; cookie?: string }) =>
  call(current.GET, { method: "GET", path: "/api/live_api/account/current", ...auth });

const invalidCredentials = {
  error: { code: "auth/invalid-credential", message: messages.invalidCredentials },
};
const tooMany = { error: { code: "RATE_LIMITED", message: messages.tooManyLoginAttempts } };

describe("password login: POST /api/identity/sign-in-with-password", () => {
  it("answers a bearer token that GET /api/live_api/account/current accepts", async () => {
    const builder = await createBuilder();
    const res = await login({ email: builder.user.email, password: STRONG_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.json.tenantId).toBeNull();
    expect(typeof res.json.token).toBe("string");
    const me = await getCurrent({ token: res.json.token });
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ accountId: builder.account.accountId, email: builder.user.email });
  });

  it("ignores case and surrounding spaces in the email", async () => {
    const builder = await createBuilder();
    const res = await login({ email: `  ${builder.user.email.toUpperCase()} `, password: STRONG_PASSWORD });
    expect(res.status).toBe(200);
  });

  it("gives the same status and body for a wrong password, an unknown user and an invalid email", async () => {
    const builder = await createBuilder();
    const answers = [
      await login({ email: builder.user.email, password: "wrong password 123" }),
      await login({ email: uniqueEmail("nobody"), password: STRONG_PASSWORD }),
      await login({ email: "not an email", password: STRONG_PASSWORD }),
      await login({ email: builder.user.email, password: "" }),
    ];
    for (const a of answers) {
      expect(a.status).toBe(401);
      expect(a.json).toEqual(invalidCredentials);
    }
  });

  it("answers 'User is disabled, contact us for more info' only to the right password", async () => {
    const builder = await createBuilder({ disabled: true });
    const right = await login({ email: builder.user.email, password: STRONG_PASSWORD });
    expect(right.status).toBe(403);
    expect(right.json).toEqual({ error: { code: "auth/user-disabled", message: messages.userDisabled } });
    // A wrong password must not reveal that the account exists (and is disabled).
    const wrong = await login({ email: builder.user.email, password: "wrong password 123" });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual(invalidCredentials);
  });

  it("signs an end user in to their app only: tenants do not share credentials", async () => {
    const owner = await createBuilder();
    const app = await createPublishedApp(owner.account.accountId);
    const endUser = await createEndUser(app.id);
    const inApp = await login({ email: endUser.user.email, password: STRONG_PASSWORD, appId: app.id });
    expect(inApp.status).toBe(200);
    expect(inApp.json.tenantId).toBe(app.id);
    const onPlatform = await login({ email: endUser.user.email, password: STRONG_PASSWORD });
    expect(onPlatform.json).toEqual(invalidCredentials);
    const builderInApp = await login({ email: owner.user.email, password: STRONG_PASSWORD, appId: app.id });
    expect(builderInApp.json).toEqual(invalidCredentials);
  });

  it("locks one address out of an account after 5 failures; the owner from elsewhere still gets in", async () => {
    const builder = await createBuilder();
    const stranger = randomIp();
    for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT_AND_IP; i++) {
      const res = await login({ email: builder.user.email, password: `wrong-${i}-password` }, stranger);
      expect(res.json).toEqual(invalidCredentials);
    }
    // Even the right password is refused from the stranger's address...
    const blocked = await login({ email: builder.user.email, password: STRONG_PASSWORD }, stranger);
    expect(blocked.status).toBe(429);
    expect(blocked.json).toEqual(tooMany);
    // ...but the owner, from their own address, is not locked out.
    expect((await login({ email: builder.user.email, password: STRONG_PASSWORD })).status).toBe(200);
  });

  it("stops guessing spread over many addresses at the per-account ceiling", async () => {
    const builder = await createBuilder();
    for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT; i++) {
      expect((await login({ email: builder.user.email, password: `wrong-${i}-password` })).status).toBe(401);
    }
    const blocked = await login({ email: builder.user.email, password: STRONG_PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.json).toEqual(tooMany);
    // Another account is not affected.
    const other = await createBuilder();
    expect((await login({ email: other.user.email, password: STRONG_PASSWORD })).status).toBe(200);
  });

  it("throttles an unknown email the same way as a known one", async () => {
    const email = uniqueEmail("ghost");
    const ip = randomIp();
    for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT_AND_IP; i++)
      await login({ email, password: "wrong password 1" }, ip);
    const res = await login({ email, password: "wrong password 1" }, ip);
    expect(res.status).toBe(429);
    expect(res.json).toEqual(tooMany);
  });

  it("answers 'Too many login attempts' to an IP that failed on many different accounts", async () => {
    const ip = randomIp();
    for (let i = 0; i < LOGIN_FAILURES_PER_IP; i++) {
      const res = await login({ email: uniqueEmail(`spray${i}`), password: "Winter2024!!" }, ip);
      expect(res.status).toBe(401);
    }
    const builder = await createBuilder();
    const blocked = await login({ email: builder.user.email, password: STRONG_PASSWORD }, ip);
    expect(blocked.status).toBe(429);
    expect(blocked.json).toEqual(tooMany);
    // The same account from another address still signs in.
    expect((await login({ email: builder.user.email, password: STRONG_PASSWORD })).status).toBe(200);
  });

  it("a successful login clears the failures of its address on the account", async () => {
    const builder = await createBuilder();
    const ip = randomIp();
    const fail = () => login({ email: builder.user.email, password: "wrong password 9" }, ip);
    for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT_AND_IP - 1; i++) await fail();
    expect((await login({ email: builder.user.email, password: STRONG_PASSWORD }, ip)).status).toBe(200);
    for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT_AND_IP - 1; i++) expect((await fail()).status).toBe(401);
    expect((await login({ email: builder.user.email, password: STRONG_PASSWORD }, ip)).status).toBe(200);
  });

  it("refuses a malformed body with 400 INVALID_INPUT, not 500", async () => {
    const res = await login({ email: 42, password: null });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "INVALID_INPUT", message: messages.invalidInput });
  });
});

describe("sessions: bearer token and cookie", () => {
  it("GET /api/live_api/account/current accepts the bearer token and the session cookie", async () => {
    const builder = await createBuilder();
    for (const auth of [{ token: builder.token }, { cookie: builder.cookie }]) {
      const me = await getCurrent(auth);
      expect(me.status).toBe(200);
      expect(me.json.accountId).toBe(builder.account.accountId);
    }
  });

  it("refuses a forged or missing token with 401", async () => {
    for (const auth of [{ token: "garbage" }, { cookie: "authjs.session-token=garbage" }, {}]) {
      const me = await getCurrent(auth);
      expect(me.status).toBe(401);
      expect(me.json.error).toEqual({ code: "UNAUTHENTICATED", message: messages.unauthenticated });
    }
  });

  it("refuses a disabled user's token with 403 'User is disabled'", async () => {
    const builder = await createBuilder({ disabled: true });
    const me = await getCurrent({ token: builder.token });
    expect(me.status).toBe(403);
    expect(me.json.error?.message).toBe(messages.userDisabled);
  });
});
