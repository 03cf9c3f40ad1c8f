import "server-only";
import { type Counter, type CounterSlot, counter } from "@/db/queries/rate-limits";
import * as c from "@/lib/constants";
import { AppError } from "@/lib/errors";
import type { MessageKey } from "@/lib/messages";

// Every limit is a reservation: the attempt takes its point atomically BEFORE the expensive
// check it guards (a password hash, a code comparison, a mail), so a burst of N parallel
// requests never gets more than the limit checked. Points are taken from the most specific
// counter to the widest and the first refusal stops there, so a stranger who used up their own
// counter adds nothing to the owner's wider ones.

export type Step = { counter: Counter; key: string };

const counters = {
  loginAccountIp: counter(
    "login-acct-ip",
    c.LOGIN_FAILURES_PER_ACCOUNT_AND_IP,
    c.LOGIN_FAILURES_PER_ACCOUNT_AND_IP_WINDOW_S,
  ),
  loginAccount: counter("login-acct", c.LOGIN_FAILURES_PER_ACCOUNT, c.LOGIN_FAILURES_PER_ACCOUNT_WINDOW_S),
  loginIp: counter("login-ip", c.LOGIN_FAILURES_PER_IP, c.LOGIN_FAILURES_PER_IP_WINDOW_S),
  mailAddressIp: counter(
    "mail-addr-ip",
    c.MAIL_SENDS_PER_ADDRESS_AND_IP,
    c.MAIL_SENDS_PER_ADDRESS_AND_IP_WINDOW_S,
  ),
  mailAddress: counter("mail-addr", c.MAIL_SENDS_PER_ADDRESS, c.MAIL_SENDS_PER_ADDRESS_WINDOW_S),
  mailIp: counter("mail-ip", c.MAIL_SENDS_PER_IP, c.MAIL_SENDS_PER_IP_WINDOW_S),
  signupIp: counter("signup-ip", c.SIGNUP_FAILURES_PER_IP, c.SIGNUP_FAILURES_PER_IP_WINDOW_S),
  emailChangeUser: counter(
    "email-change",
    c.EMAIL_CHANGE_IN_USE_PER_USER,
    c.EMAIL_CHANGE_IN_USE_PER_USER_WINDOW_S,
  ),
  otpIp: counter("otp-ip", c.OTP_FAILURES_PER_IP, c.OTP_FAILURES_PER_IP_WINDOW_S),
  appDataAnonymous: counter("app-data-anon", c.APP_DATA_ANONYMOUS_WRITES_PER_MINUTE, 60),
  functionCalls: counter("function-ip", c.FUNCTION_CALLS_PER_MINUTE, 60),
};

/** An attempt that holds its points; `succeeded()` gives them back (only failures count). */
export type Attempt = { succeeded(): Promise<void> };

/** Points taken from every step; `giveBack()` returns them all. */
export type Reservation = { giveBack(): Promise<void> };

/**
 * Takes one point from each step in order; the first step with none left gives back the points
 * already taken and throws what `refusal` makes of it.
 */
export async function reserveSteps(
  steps: Step[],
  refusal: (refused: Step) => AppError,
): Promise<Reservation> {
  const taken: Step[] = [];
  for (const step of steps) {
    if (!(await step.counter.consume(step.key))) {
      await Promise.all(taken.map((t) => t.counter.refund(t.key)));
      throw refusal(step);
    }
    taken.push(step);
  }
  return { giveBack: () => Promise.all(taken.map((t) => t.counter.refund(t.key))).then(() => {}) };
}

async function reserve(steps: Step[], refused: MessageKey): Promise<Attempt> {
  const r = await reserveSteps(steps, () => new AppError("RATE_LIMITED", refused));
  return { succeeded: r.giveBack };
}

/**
 * A password check for the account of `email` in a tenant (null: the platform) from `ip`: 5
 * failures per account and address, 100 per account an hour from anywhere, 30 per address
 * across accounts.
 */
export async function reserveLoginAttempt(
  tenantId: string | null,
  email: string,
  ip: string,
): Promise<Attempt> {
  const account = `${tenantId ?? "platform"}\n${email}`;
  const here = { counter: counters.loginAccountIp, key: `${account}\n${ip}` };
  const attempt = await reserve(
    [here, { counter: counters.loginIp, key: ip }, { counter: counters.loginAccount, key: account }],
    "tooManyLoginAttempts",
  );
  return {
    // The owner got in from this address: their earlier typos here are forgiven.
    succeeded: () => attempt.succeeded().then(() => here.counter.reset(here.key)),
  };
}

/** Mail sends (verification, reset, email change, codes) per kind: per address and IP, per IP, per address. */
export async function assertMailSendAllowed(kind: string, address: string, ip: string): Promise<void> {
  await reserve(
    [
      { counter: counters.mailAddressIp, key: `${kind}\n${address}\n${ip}` },
      { counter: counters.mailIp, key: `${kind}\n${ip}` },
      { counter: counters.mailAddress, key: `${kind}\n${address}` },
    ],
    "tooManyRequests",
  );
}

/** A sign-up from `ip`: answers that an address is taken are limited like failed logins. */
export function reserveSignupAttempt(ip: string): Promise<Attempt> {
  return reserve([{ counter: counters.signupIp, key: ip }], "tooManyRequests");
}

/** An email change request of a user: answers that the new address is taken are limited. */
export function reserveEmailChangeAttempt(userId: string): Promise<Attempt> {
  return reserve([{ counter: counters.emailChangeUser, key: userId }], "tooManyRequests");
}

/** A typed one-time code from `ip` (each code also counts its own attempts). */
export function reserveCodeAttempt(ip: string): Promise<Attempt> {
  return reserve([{ counter: counters.otpIp, key: ip }], "tooManyRequests");
}

/**
 * Records written to a space app's data by a caller without a sign-in (an "anonymous" write level),
 * per app and address: taken before the records are checked, and kept (every write counts; a bulk
 * create counts each of its records).
 */
export async function reserveAnonymousWrites(appId: string, ip: string, records = 1): Promise<void> {
  if (!(await counters.appDataAnonymous.consume(`${appId}\n${ip}`, records))) {
    throw new AppError("RATE_LIMITED", "appDataRateLimited");
  }
}

/**
 * The counter of calls of a space app's function by its public URL, per app and address
 * (`FUNCTION_CALLS_PER_MINUTE`): the public call takes its point in the statement that reads the
 * function (db/queries/app-functions.ts, reserveFunctionCallAndRead), before anything is read or
 * run, and keeps it (every call counts, answered or not).
 */
export function functionCallSlot(appId: string, ip: string): CounterSlot {
  return counters.functionCalls.slot(`${appId}\n${ip}`);
}
