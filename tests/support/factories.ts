import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { db } from "../../db/client";
import { insertAccountIfMissing } from "../../db/queries/accounts";
import { insertApp } from "../../db/queries/apps";
import { insertUser } from "../../db/queries/users";
import type { User } from "../../db/schema";
import { accounts } from "../../db/schema";
import { claimsFor } from "../../lib/auth/claims";
import { hashPassword } from "../../lib/auth/password";
import { encodeBearerToken, sessionCookieName } from "../../lib/auth/session-token";

export const STRONG_PASSWORD = "correct horse battery 42";

let hashed: Promise<string> | undefined;
const strongHash = () => (hashed ??= hashPassword(STRONG_PASSWORD));

export const uniqueEmail = (prefix = "user") => `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.com`;

export async function tokenFor(user: User) {
  return encodeBearerToken(claimsFor(user));
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
  if (opts.disabled) await db().execute(`UPDATE users SET disabled_at = now() WHERE id = '${user.id}'`);
  let account: typeof accounts.$inferSelect | undefined;
  if (opts.withAccount !== false) {
    account = await insertAccountIfMissing({ userId: user.id, accountType: "builder", appId: null });
    if (opts.isAdmin || opts.plan) {
      [account] = await db()
        .update(accounts)
        .set({ isAdmin: opts.isAdmin ?? false, plan: opts.plan ?? "lite" })
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
