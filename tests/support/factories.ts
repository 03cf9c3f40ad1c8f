import crypto from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { db } from "../../db/client";
import { insertAccountIfMissing } from "../../db/queries/accounts";
import { insertApp } from "../../db/queries/apps";
import { listOutboxMails } from "../../db/queries/outbox";
import { insertUser } from "../../db/queries/users";
import type { User } from "../../db/schema";
import { accounts } from "../../db/schema";
import { hashPassword } from "../../lib/auth/password";
import { encodeBearerToken, sessionCookieName } from "../../lib/auth/session-token";
import { disableUser, startSession } from "../../lib/auth/sessions";
import { runDueJobs } from "../../lib/jobs/worker";
import { FREE_PLAN_ID } from "../../lib/plans/catalogue";
import { PEER_HEADER } from "../../lib/security/client-ip";

export const STRONG_PASSWORD = "correct horse battery 42";

let hashed: Promise<string> | undefined;
const strongHash = () => (hashed ??= hashPassword(STRONG_PASSWORD));

export const uniqueEmail = (prefix = "user") => `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.com`;

/** A bearer token of a new server-side session of `user` (as a sign-in would open). */
export async function tokenFor(user: User) {
  const { claims } = await startSession(user, { userAgent: "vitest", ip: "127.0.0.1" });
  return encodeBearerToken(claims);
}

export async function cookieFor(user: User) {
  return `${sessionCookieName()}=${await tokenFor(user)}`;
}

export async function createBuilder(
  opts: {
    email?: string;
    verified?: boolean;
    isAdmin?: boolean;
    plan?: string;
    withAccount?: boolean;
    disabled?: boolean;
  } = {},
) {
  const user = (await insertUser({
    tenantId: null,
    email: opts.email ?? uniqueEmail("builder"),
    passwordHash: await strongHash(),
    emailVerifiedAt: opts.verified === false ? null : new Date(),
  }))!;
  if (opts.disabled) await disableUser(user.id);
  let account: typeof accounts.$inferSelect | undefined;
  if (opts.withAccount !== false) {
    account = await insertAccountIfMissing({ userId: user.id, accountType: "builder", appId: null });
    if (opts.isAdmin || opts.plan) {
      [account] = await db()
        .update(accounts)
        .set({ isAdmin: opts.isAdmin ?? false, plan: opts.plan ?? FREE_PLAN_ID })
        .where(eq(accounts.accountId, account.accountId))
        .returning();
    }
  }
  return { user, account: account!, token: await tokenFor(user), cookie: await cookieFor(user) };
}

export async function createPublishedApp(ownerAccountId: string, header = "Test App") {
  return insertApp({ ownerAccountId, status: "active", header });
}

export async function createEndUser(appId: string, opts: { email?: string } = {}) {
  const user = (await insertUser({
    tenantId: appId,
    email: opts.email ?? uniqueEmail("enduser"),
    passwordHash: await strongHash(),
    emailVerifiedAt: new Date(),
  }))!;
  const account = await insertAccountIfMissing({ userId: user.id, accountType: "other", appId });
  return { user, account, token: await tokenFor(user), cookie: await cookieFor(user) };
}

// ---- helpers for the auth and security tests ----

/** A fresh client address per call: rate limits count per IP, and tests must not share one. */
export function randomIp(): string {
  const b = crypto.randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

export async function createDraftApp(ownerAccountId: string, header = "Draft App") {
  return insertApp({ ownerAccountId, status: "draft", header });
}

export { disableUser };

/** Runs `fn` while the job queue refuses jobs (its schema renamed away), then brings it back. */
export async function withJobQueueDown<T>(fn: () => Promise<T>): Promise<T> {
  await db().execute(sql`ALTER SCHEMA pgboss RENAME TO pgboss_down`);
  try {
    return await fn();
  } finally {
    await db().execute(sql`ALTER SCHEMA pgboss_down RENAME TO pgboss`);
  }
}

/** Makes every open code or link of an address expired, as if its time had passed. */
export async function expireCodesOf(email: string) {
  await db().execute(
    sql`UPDATE auth_codes SET expires_at = now() - interval '1 second' WHERE email = ${email} AND used_at IS NULL`,
  );
}

/** Lifetime of the newest code or link of an address, in seconds (expires_at - created_at). */
export async function lifetimeOfLatestCode(email: string, purpose: string): Promise<number> {
  await runDueJobs();
  const r = await db().execute<{ s: number }>(
    sql`SELECT extract(epoch FROM expires_at - created_at)::float AS s FROM auth_codes
        WHERE email = ${email} AND purpose = ${purpose} ORDER BY created_at DESC LIMIT 1`,
  );
  return Number(r.rows[0]?.s);
}

/**
 * Mails written to the outbox for an address, newest first. Mails are sent by jobs: the jobs
 * due now run first, through the worker's own handlers.
 */
export async function mailsTo(email: string) {
  await runDueJobs();
  return listOutboxMails({ to: email.trim().toLowerCase() });
}

export async function lastMailTo(email: string) {
  const [mail] = await mailsTo(email);
  if (!mail) throw new Error(`no mail to ${email} in the outbox`);
  return mail;
}

/** The first link in a mail's text. */
export function linkIn(mail: { text: string }): URL {
  const m = mail.text.match(/https?:\/\/\S+/);
  if (!m) throw new Error(`no link in mail: ${mail.text}`);
  return new URL(m[0]);
}

/** The oobCode of the action link in a mail (`/auth/handler?...&oobCode=`). */
export function oobCodeIn(mail: { text: string }): string {
  const code = linkIn(mail).searchParams.get("oobCode");
  if (!code) throw new Error(`no oobCode in mail: ${mail.text}`);
  return code;
}

/** The 6-digit code of a magic-code mail. */
export function sixDigitCodeIn(mail: { text: string }): string {
  const m = mail.text.match(/\b(\d{6})\b/);
  if (!m) throw new Error(`no 6-digit code in mail: ${mail.text}`);
  return m[1]!;
}

/** Headers of a request from its own client address (see randomIp), as our server sets them. */
export function fromIp(ip: string = randomIp()): Record<string, string> {
  return { [PEER_HEADER]: ip };
}
