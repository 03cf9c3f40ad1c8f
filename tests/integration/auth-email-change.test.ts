import { describe, expect, it } from "vitest";
import * as requestChange from "@/app/api/identity/request-email-change/route";
import * as signIn from "@/app/api/identity/sign-in-with-password/route";
import * as signUpRoute from "@/app/api/identity/sign-up/route";
import * as completeChange from "@/app/api/live_api/account/completeEmailChange/route";
import * as current from "@/app/api/live_api/account/current/route";
import { LOGIN_FAILURES_PER_ACCOUNT_AND_IP } from "@/lib/constants";
import { messages } from "@/lib/messages";
import {
  createBuilder,
  createEndUser,
  createPublishedApp,
  expireCodesOf,
  fromIp,
  lastMailTo,
  lifetimeOfLatestCode,
  linkIn,
  mailsTo,
  oobCodeIn,
  randomIp,
  STRONG_PASSWORD,
  uniqueEmail,
  withJobQueueDown,
} from "../support/factories";
import { call } from "../support/http";

const APP_URL = "http://localhost:3000";

const request = (token: string, body: Record<string, unknown>, ip?: string) =>
  call(requestChange.POST, { path: "/api/identity/request-email-change", token, body, headers: fromIp(ip) });

const complete = (newEmail: string, oobCode: string) =>
  call(completeChange.POST, {
    path: "/api/live_api/account/completeEmailChange",
    body: { newEmail, oobCode },
    headers: fromIp(),
  });

const login = (email: string, password = STRONG_PASSWORD, appId?: string) =>
  call(signIn.POST, {
    path: "/api/identity/sign-in-with-password",
    body: { email, password, appId },
    headers: fromIp(),
  });

const inUse = { error: { code: "auth/email-already-exists", message: messages.emailInUse } };
const changeFailed = { error: { code: "auth/invalid-action-code", message: messages.emailChangeFailed } };

describe("email change request: POST /api/identity/request-email-change", () => {
  it("requires the current password", async () => {
    const builder = await createBuilder();
    const newEmail = uniqueEmail("new");
    const wrong = await request(builder.token, { newEmail, currentPassword: "not my password" });
    expect(wrong.status).toBe(400);
    expect(wrong.json).toEqual({
      error: { code: "auth/wrong-password", message: messages.currentPasswordWrong },
    });
    const missing = await request(builder.token, { newEmail });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toMatchObject({ code: "INVALID_INPUT", message: messages.invalidInput });
    expect(await mailsTo(newEmail)).toHaveLength(0);
  });

  it("throttles wrong current passwords like failed logins", async () => {
    const builder = await createBuilder();
    const ip = randomIp();
    for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT_AND_IP; i++) {
      await request(builder.token, { newEmail: uniqueEmail(), currentPassword: `guess ${i} password` }, ip);
    }
    const res = await request(
      builder.token,
      { newEmail: uniqueEmail(), currentPassword: STRONG_PASSWORD },
      ip,
    );
    expect(res.status).toBe(429);
    expect(res.json.error).toEqual({ code: "RATE_LIMITED", message: messages.tooManyLoginAttempts });
  });

  it("answers 409 auth/email-already-exists 'This email is already in use' for a taken address", async () => {
    const builder = await createBuilder();
    const other = await createBuilder();
    for (const newEmail of [other.user.email, other.user.email.toUpperCase(), builder.user.email]) {
      const res = await request(builder.token, { newEmail, currentPassword: STRONG_PASSWORD });
      expect(res.status, newEmail).toBe(409);
      expect(res.json).toEqual(inUse);
    }
  });

  it("answers 'This email is invalid' for a malformed address", async () => {
    const builder = await createBuilder();
    const res = await request(builder.token, { newEmail: "nope", currentPassword: STRONG_PASSWORD });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: { code: "auth/invalid-email", message: messages.emailInvalid } });
  });

  it("refuses anonymous callers with 401", async () => {
    const res = await call(requestChange.POST, {
      path: "/api/identity/request-email-change",
      body: { newEmail: uniqueEmail(), currentPassword: STRONG_PASSWORD },
    });
    expect(res.status).toBe(401);
  });

  it("answers 'Something went wrong when confirming email change...' when the mail cannot be queued", async () => {
    const builder = await createBuilder();
    // The job queue refuses the job: the request can't promise a mail.
    await withJobQueueDown(async () => {
      const res = await request(builder.token, { newEmail: uniqueEmail(), currentPassword: STRONG_PASSWORD });
      expect(res.status).toBe(500);
      expect(res.json).toEqual({ error: { code: "auth/send-failed", message: messages.emailChangeFailed } });
    });
  });
});

describe("email change completion: POST /api/live_api/account/completeEmailChange", () => {
  it("mails a link to the new address; it completes once, and the login works with the new email", async () => {
    const builder = await createBuilder();
    const newEmail = uniqueEmail("moved");
    const res = await request(builder.token, { newEmail, currentPassword: STRONG_PASSWORD });
    expect(res.status).toBe(200);
    expect(await mailsTo(builder.user.email)).toHaveLength(0);
    const mail = await lastMailTo(newEmail);
    const link = linkIn(mail);
    expect(link.origin).toBe(APP_URL);
    expect(link.pathname).toBe("/auth/handler");
    expect(link.searchParams.get("mode")).toBe("verifyAndChangeEmail");
    expect(await lifetimeOfLatestCode(builder.user.email, "change_email")).toBeCloseTo(3600, -1);

    const done = await complete(newEmail, oobCodeIn(mail));
    expect(done.status).toBe(200);
    expect(done.json).toEqual({ email: newEmail });

    expect((await login(newEmail)).status).toBe(200);
    expect((await login(builder.user.email)).json.error?.message).toBe(messages.invalidCredentials);
    const me = await call(current.GET, {
      method: "GET",
      path: "/api/live_api/account/current",
      token: builder.token,
    });
    expect(me.json.email).toBe(newEmail);

    const again = await complete(newEmail, oobCodeIn(mail));
    expect(again.status).toBe(400);
    expect(again.json).toEqual(changeFailed);
  });

  it("answers 409 when someone took the address between the request and the click", async () => {
    const builder = await createBuilder();
    const newEmail = uniqueEmail("contested");
    expect((await request(builder.token, { newEmail, currentPassword: STRONG_PASSWORD })).status).toBe(200);
    const oobCode = oobCodeIn(await lastMailTo(newEmail));
    const squatter = await call(signUpRoute.POST, {
      path: "/api/identity/sign-up",
      body: { email: newEmail, password: STRONG_PASSWORD },
      headers: fromIp(),
    });
    expect(squatter.status).toBe(200);
    const res = await complete(newEmail, oobCode);
    expect(res.status).toBe(409);
    expect(res.json).toEqual(inUse);
    expect((await login(builder.user.email)).status).toBe(200);
  });

  it("answers 'Something went wrong when confirming email change...' for a garbage, expired or mismatched link", async () => {
    const builder = await createBuilder();
    const newEmail = uniqueEmail("later");
    await request(builder.token, { newEmail, currentPassword: STRONG_PASSWORD });
    const oobCode = oobCodeIn(await lastMailTo(newEmail));

    const garbage = await complete(newEmail, "garbage");
    expect(garbage.status).toBe(400);
    expect(garbage.json).toEqual(changeFailed);

    // A link is bound to the address it was sent to.
    const otherAddress = await complete(uniqueEmail("hijack"), oobCode);
    expect(otherAddress.status).toBe(400);
    expect(otherAddress.json).toEqual(changeFailed);

    const builder2 = await createBuilder();
    const newEmail2 = uniqueEmail("expired");
    await request(builder2.token, { newEmail: newEmail2, currentPassword: STRONG_PASSWORD });
    const oobCode2 = oobCodeIn(await lastMailTo(newEmail2));
    await expireCodesOf(builder2.user.email);
    const expired = await complete(newEmail2, oobCode2);
    expect(expired.status).toBe(400);
    expect(expired.json).toEqual(changeFailed);
    expect((await login(builder2.user.email)).status).toBe(200);
  });

  it("lets an end user take an address a builder (another tenant) already uses", async () => {
    const owner = await createBuilder();
    const app = await createPublishedApp(owner.account.accountId);
    const endUser = await createEndUser(app.id);
    const res = await request(endUser.token, {
      newEmail: owner.user.email,
      currentPassword: STRONG_PASSWORD,
    });
    expect(res.status).toBe(200);
    const done = await complete(owner.user.email, oobCodeIn(await lastMailTo(owner.user.email)));
    expect(done.status).toBe(200);
    expect((await login(owner.user.email, STRONG_PASSWORD, app.id)).status).toBe(200);
  });
});
