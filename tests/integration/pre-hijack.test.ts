import { beforeAll, describe, expect, it } from "vitest";
import * as magicLink from "@/app/api/identity/sign-in-with-magic-link/route";
import * as signIn from "@/app/api/identity/sign-in-with-password/route";
import * as signUp from "@/app/api/identity/sign-up/route";
import * as tokenRoute from "@/app/api/identity/token/route";
import * as sendMagic from "@/app/api/live_api/account/sendMagicLink/route";
import * as validate from "@/app/api/live_api/account/validateOtp/route";
import { findUserByEmail } from "@/db/queries/users";
import type { App } from "@/db/schema";
import { googleSignIn } from "@/lib/auth/google";
import { messages } from "@/lib/messages";
import {
  createBuilder,
  createPublishedApp,
  fromIp,
  lastMailTo,
  mailsTo,
  oobCodeIn,
  sixDigitCodeIn,
  uniqueEmail,
} from "../support/factories";
import { call } from "../support/http";

// Account pre-hijacking: a stranger signs up first with the victim's address and a password of
// their own, and waits for the victim to prove the address another way.

const STRANGERS_PASSWORD = "the strangers own passphrase 1";

// Any route for signed-in users tells whether a token's session still stands.
const me = (token: string) => call(tokenRoute.POST, { path: "/api/identity/token", token });
const passwordSignIn = (email: string, appId?: string) =>
  call<{ token: string }>(signIn.POST, {
    path: "/api/identity/sign-in-with-password",
    body: { email, password: STRANGERS_PASSWORD, appId },
    headers: fromIp(),
  });

async function strangerSignsUpAs(email: string, appId?: string) {
  const res = await call(signUp.POST, {
    path: "/api/identity/sign-up",
    body: { email, password: STRANGERS_PASSWORD, appId },
    headers: fromIp(),
  });
  expect(res.status).toBe(200);
  const login = await passwordSignIn(email, appId);
  expect(login.status).toBe(200);
  expect((await me(login.json.token)).status).toBe(200);
  return login.json.token;
}

async function victimGetsCode(app: App, email: string) {
  const res = await call(sendMagic.POST, {
    path: `/api/live_api/account/sendMagicLink?appId=${app.id}`,
    body: { email },
    headers: fromIp(),
  });
  expect(res.status).toBe(200);
  return lastMailTo(email);
}

let app: App;
beforeAll(async () => {
  const owner = await createBuilder();
  app = await createPublishedApp(owner.account.accountId, "Hijack App");
});

describe("an address proven by a code removes a password set before it was verified", () => {
  it("code: the stranger's password and session stop working, and the victim is told", async () => {
    const victim = uniqueEmail("victim");
    const strangersToken = await strangerSignsUpAs(victim, app.id);

    const mail = await victimGetsCode(app, victim);
    const res = await call<{ customToken: string; notice?: string }>(validate.POST, {
      path: `/api/live_api/account/validateOtp?appId=${app.id}`,
      body: { email: victim, otp: sixDigitCodeIn(mail) },
      headers: fromIp(),
    });
    expect(res.status).toBe(200);
    expect(res.json.notice).toBe(messages.passwordRemovedAfterProof);

    expect((await me(strangersToken)).status).toBe(401);
    expect((await passwordSignIn(victim, app.id)).json).toMatchObject({
      error: { message: messages.invalidCredentials },
    });
    expect((await findUserByEmail(app.id, victim))?.passwordHash).toBeNull();
    expect((await lastMailTo(victim)).text).toContain(messages.passwordRemovedAfterProof);
  });

  it("magic link: the same", async () => {
    const victim = uniqueEmail("victim-link");
    const strangersToken = await strangerSignsUpAs(victim, app.id);
    const mail = await victimGetsCode(app, victim);
    const res = await call<{ notice?: string }>(magicLink.POST, {
      path: "/api/identity/sign-in-with-magic-link",
      body: { oobCode: oobCodeIn(mail) },
      headers: fromIp(),
    });
    expect(res.status).toBe(200);
    expect(res.json.notice).toBe(messages.passwordRemovedAfterProof);
    expect((await me(strangersToken)).status).toBe(401);
    expect((await passwordSignIn(victim, app.id)).status).toBe(401);
  });

  it("a verified end user who signs in by code keeps their password and sessions, and hears nothing", async () => {
    const email = uniqueEmail("verified");
    const token = await strangerSignsUpAs(email, app.id);
    // Their first code proves the address (the password goes: it was set before verification)...
    const first = await victimGetsCode(app, email);
    await call(validate.POST, {
      path: `/api/live_api/account/validateOtp?appId=${app.id}`,
      body: { email, otp: sixDigitCodeIn(first) },
      headers: fromIp(),
    });
    expect((await me(token)).status).toBe(401);
    const mailsBefore = (await mailsTo(email)).length;
    // ...and from then on a code changes nothing.
    const second = await victimGetsCode(app, email);
    const res = await call<{ customToken: string; notice?: string }>(validate.POST, {
      path: `/api/live_api/account/validateOtp?appId=${app.id}`,
      body: { email, otp: sixDigitCodeIn(second) },
      headers: fromIp(),
    });
    expect(res.status).toBe(200);
    expect(res.json.notice).toBeUndefined();
    expect((await mailsTo(email)).length).toBe(mailsBefore + 1);
  });
});

describe("an address proven by Google removes a password set before it was verified", () => {
  it("builder: the stranger's password and session stop working", async () => {
    const victim = uniqueEmail("google-victim");
    const strangersToken = await strangerSignsUpAs(victim);
    const user = await googleSignIn(null, { sub: `google-${victim}`, email: victim, email_verified: true });
    expect(user?.emailVerifiedAt).toBeInstanceOf(Date);
    expect(user?.passwordHash).toBeNull();
    expect((await me(strangersToken)).status).toBe(401);
    expect((await passwordSignIn(victim)).status).toBe(401);
    expect((await lastMailTo(victim)).text).toContain(messages.passwordRemovedAfterProof);
  });

  it("a builder whose address was already verified keeps their password", async () => {
    const builder = await createBuilder();
    const user = await googleSignIn(null, {
      sub: "google-x",
      email: builder.user.email,
      email_verified: true,
    });
    expect(user?.passwordHash).not.toBeNull();
    expect((await me(builder.token)).status).toBe(200);
  });
});
