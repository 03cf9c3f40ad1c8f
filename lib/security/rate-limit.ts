import "server-only";
import { bumpCounter, deleteCounter } from "@/db/queries/rate-limits";
import { AppError } from "@/lib/api/errors";
import {
  LOGIN_FAILURES_PER_ACCOUNT,
  LOGIN_FAILURES_PER_IP,
  LOGIN_WINDOW_S,
  MAIL_SENDS_PER_ADDRESS,
  MAIL_SENDS_PER_IP,
  MAIL_WINDOW_S,
} from "@/lib/constants";

const loginKeys = (account: string, ip: string) => [`login:acct:${account}`, `login:ip:${ip}`] as const;

/** Refuses a login while the account or the IP has too many recent failures. */
export async function assertLoginAllowed(account: string, ip: string): Promise<void> {
  const [acctKey, ipKey] = loginKeys(account, ip);
  const [a, i] = await Promise.all([
    bumpCounter(acctKey, LOGIN_WINDOW_S, 0),
    bumpCounter(ipKey, LOGIN_WINDOW_S, 0),
  ]);
  if (a >= LOGIN_FAILURES_PER_ACCOUNT || i >= LOGIN_FAILURES_PER_IP) {
    throw new AppError("RATE_LIMITED", "tooManyLoginAttempts");
  }
}

export async function recordLoginFailure(account: string, ip: string): Promise<void> {
  await Promise.all(loginKeys(account, ip).map((k) => bumpCounter(k, LOGIN_WINDOW_S)));
}

export async function recordLoginSuccess(account: string): Promise<void> {
  await deleteCounter(loginKeys(account, "")[0]);
}

/** Mail sends (verification, reset, magic codes) are limited per address and per IP. */
export async function assertMailSendAllowed(kind: string, address: string, ip: string): Promise<void> {
  const [a, i] = await Promise.all([
    bumpCounter(`mail:${kind}:addr:${address}`, MAIL_WINDOW_S),
    bumpCounter(`mail:${kind}:ip:${ip}`, MAIL_WINDOW_S),
  ]);
  if (a > MAIL_SENDS_PER_ADDRESS || i > MAIL_SENDS_PER_IP)
    throw new AppError("RATE_LIMITED", "tooManyRequests");
}
