import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as sendVerification from "@/app/api/identity/send-verification-email/route";
import * as signIn from "@/app/api/identity/sign-in-with-password/route";
import * as signUp from "@/app/api/identity/sign-up/route";
import * as sendMagic from "@/app/api/live_api/account/sendMagicLink/route";
import * as sendReset from "@/app/api/live_api/account/sendResetPasswordEmail/route";
import * as validate from "@/app/api/live_api/account/validateOtp/route";
import { db } from "@/db/client";
import type { App } from "@/db/schema";
import {
  LOGIN_FAILURES_PER_ACCOUNT_AND_IP,
  MAGIC_CODE_MAX_ATTEMPTS,
  MAIL_SENDS_PER_ADDRESS,
  MAIL_SENDS_PER_ADDRESS_AND_IP,
  SIGNUP_FAILURES_PER_IP,
} from "@/lib/constants";
import { authJsSignIn, authJsSignInAnswer } from "../support/auth-js";
import {
  createBuilder,
  createPublishedApp,
  fromIp,
  lastMailTo,
  mailsTo,
  randomIp,
  STRONG_PASSWORD,
  sixDigitCodeIn,
  uniqueEmail,
} from "../support/factories";
import { call } from "../support/http";

// Attackers send their attempts all at once. Each limit reserves its attempt atomically before
// the check it guards, so however many requests race, no more than the limit are checked.

const BURST = 30;
const burst = <T>(n: number, fn: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => fn(i)));
const statuses = (answers: { status: number }[]) => answers.map((a) => a.status);
const checked = (answers: { status: number }[]) => statuses(answers).filter((s) => s !== 429).length;

let app: App;
beforeAll(async () => {
  const owner = await createBuilder();
  app = await createPublishedApp(owner.account.accountId, "Limits App");
});

describe("password attempts", () => {
  it(`a parallel burst on one account from one address gets at most ${LOGIN_FAILURES_PER_ACCOUNT_AND_IP} passwords checked, the right one included`, async () => {
    const builder = await createBuilder();
    const ip = randomIp();
    const answers = await burst(BURST, (i) =>
      call(signIn.POST, {
        path: "/api/identity/sign-in-with-password",
        body: {
          email: builder.user.email,
          password: i === BURST - 1 ? STRONG_PASSWORD : `wrong guess ${i} x`,
        },
        headers: fromIp(ip),
      }),
    );
    expect(checked(answers)).toBeLessThanOrEqual(LOGIN_FAILURES_PER_ACCOUNT_AND_IP);
    expect(statuses(answers).filter((s) => s === 429).length).toBeGreaterThanOrEqual(
      BURST - LOGIN_FAILURES_PER_ACCOUNT_AND_IP,
    );
  });

  it("the login form (Auth.js) is held to the same limit", async () => {
    const builder = await createBuilder();
    const ip = randomIp();
    const wrong = await burst(BURST, (i) =>
      authJsSignInAnswer("password", { email: builder.user.email, password: `nope nope ${i}` }, fromIp(ip)),
    );
    const compared = wrong.filter((a) => a.refusedWith === "invalidCredentials").length;
    expect(compared).toBeLessThanOrEqual(LOGIN_FAILURES_PER_ACCOUNT_AND_IP);
    const refused = wrong.filter((a) => a.refusedWith === "tooManyLoginAttempts").length;
    expect(refused).toBeGreaterThanOrEqual(BURST - LOGIN_FAILURES_PER_ACCOUNT_AND_IP);
    const here = await authJsSignIn(
      "password",
      { email: builder.user.email, password: STRONG_PASSWORD },
      fromIp(ip),
    );
    expect(here, "locked for this address after the burst").toBeUndefined();
    const elsewhere = await authJsSignIn(
      "password",
      { email: builder.user.email, password: STRONG_PASSWORD },
      fromIp(),
    );
    expect(elsewhere, "the owner from another address gets in").toBeTruthy();
  });
});

describe("one-time codes", () => {
  async function sendCode(email: string, ip = randomIp()) {
    const res = await call(sendMagic.POST, {
      path: `/api/live_api/account/sendMagicLink?appId=${app.id}`,
      body: { email },
      headers: fromIp(ip),
    });
    expect(res.status).toBe(200);
  }
  const guess = (email: string, otp: string) =>
    call(validate.POST, {
      path: `/api/live_api/account/validateOtp?appId=${app.id}`,
      body: { email, otp },
      headers: fromIp(),
    });

  it(`a burst of guesses compares the code at most ${MAGIC_CODE_MAX_ATTEMPTS} times, and a right code inside the burst is refused past that`, async () => {
    const email = uniqueEmail("burst");
    await sendCode(email);
    const code = sixDigitCodeIn(await lastMailTo(email));
    const wrong = code === "000000" ? "111111" : "000000";
    const answers = await burst(BURST, (i) => guess(email, i === BURST - 1 ? code : wrong));
    const compared = answers.filter((a) => a.status === 200 || a.status === 400).length;
    expect(compared).toBeLessThan(MAGIC_CODE_MAX_ATTEMPTS + 1);
    const r = await db().execute<{ attempts: number }>(
      sql`SELECT attempts FROM auth_codes WHERE email = ${email} AND purpose = 'magic_code'`,
    );
    expect(Number(r.rows[0]!.attempts)).toBeLessThanOrEqual(MAGIC_CODE_MAX_ATTEMPTS);
    // Whatever the order, the code is now dead or used: the right code no longer signs in.
    expect((await guess(email, code)).status).not.toBe(200);
  });
});

describe("mail sends", () => {
  const routes = {
    reset: (email: string, ip: string) =>
      call(sendReset.POST, {
        path: "/api/live_api/account/sendResetPasswordEmail",
        body: { email },
        headers: fromIp(ip),
      }),
    code: (email: string, ip: string) =>
      call(sendMagic.POST, {
        path: `/api/live_api/account/sendMagicLink?appId=${app.id}`,
        body: { email },
        headers: fromIp(ip),
      }),
  };

  it.each(Object.keys(routes) as (keyof typeof routes)[])(
    "%s: a parallel burst for one address from one IP sends at most the per-address-and-IP limit",
    async (kind) => {
      const builder = await createBuilder();
      const ip = randomIp();
      const answers = await burst(BURST, () => routes[kind](builder.user.email, ip));
      expect(statuses(answers).filter((s) => s === 200).length).toBe(MAIL_SENDS_PER_ADDRESS_AND_IP);
    },
  );

  it("verification: a parallel burst from one IP sends at most the per-address-and-IP limit", async () => {
    const builder = await createBuilder({ verified: false });
    const ip = randomIp();
    const answers = await burst(BURST, () =>
      call(sendVerification.POST, {
        path: "/api/identity/send-verification-email",
        token: builder.token,
        body: {},
        headers: fromIp(ip),
      }),
    );
    expect(statuses(answers).filter((s) => s === 200).length).toBe(MAIL_SENDS_PER_ADDRESS_AND_IP);
  });

  it.each(Object.keys(routes) as (keyof typeof routes)[])(
    "%s: a stranger who used up their sends for an address does not stop the owner getting one",
    async (kind) => {
      const builder = await createBuilder();
      const stranger = randomIp();
      for (let i = 0; i < MAIL_SENDS_PER_ADDRESS_AND_IP; i++)
        await routes[kind](builder.user.email, stranger);
      expect((await routes[kind](builder.user.email, stranger)).status).toBe(429);
      const before = (await mailsTo(builder.user.email)).length;
      expect((await routes[kind](builder.user.email, randomIp())).status).toBe(200);
      expect((await mailsTo(builder.user.email)).length).toBe(before + 1);
    },
  );

  it("a ceiling per address stops sends spread over many IPs", async () => {
    const email = uniqueEmail("ceiling");
    for (let i = 0; i < MAIL_SENDS_PER_ADDRESS; i++)
      expect((await routes.code(email, randomIp())).status).toBe(200);
    expect((await routes.code(email, randomIp())).status).toBe(429);
  });
});

describe("routes that tell whether an address exists", () => {
  it(`sign-up: a burst of taken addresses from one IP gets at most ${SIGNUP_FAILURES_PER_IP} answers`, async () => {
    const taken = await createBuilder();
    const ip = randomIp();
    const answers = await burst(BURST, () =>
      call(signUp.POST, {
        path: "/api/identity/sign-up",
        body: { email: taken.user.email, password: STRONG_PASSWORD },
        headers: fromIp(ip),
      }),
    );
    expect(statuses(answers).filter((s) => s === 409).length).toBeLessThanOrEqual(SIGNUP_FAILURES_PER_IP);
    expect(statuses(answers).filter((s) => s === 429).length).toBeGreaterThanOrEqual(
      BURST - SIGNUP_FAILURES_PER_IP,
    );
    // A real sign-up from another address still works.
    const fresh = await call(signUp.POST, {
      path: "/api/identity/sign-up",
      body: { email: uniqueEmail("fresh"), password: STRONG_PASSWORD },
      headers: fromIp(),
    });
    expect(fresh.status).toBe(200);
  });
});
