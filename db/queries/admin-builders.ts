import { and, asc, eq, ilike, isNull, type SQL } from "drizzle-orm";
import { db, type Executor } from "../client";
import { accounts, users } from "../schema";

// The operator's view of builder accounts (lib/accounts/admin-builders.ts): sign-in email, plan
// and admin flag, for the admin page and `npm run admin`.

const row = {
  accountId: accounts.accountId,
  email: users.email,
  plan: accounts.plan,
  isAdmin: accounts.isAdmin,
  createdAt: accounts.createdAt,
};
export type BuilderAccountRow = {
  accountId: string;
  email: string;
  plan: string;
  isAdmin: boolean;
  createdAt: Date;
};

const isBuilder = and(eq(accounts.accountType, "builder"), isNull(users.tenantId));

/** `%`, `_` and `\` in a search are letters, not patterns. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Builders whose email contains `search` (all when empty), by email, at most `limit`. */
export async function listBuilderAccounts(
  search: string,
  limit: number,
  ex: Executor = db(),
): Promise<BuilderAccountRow[]> {
  const filter: SQL | undefined = search ? ilike(users.email, `%${likeLiteral(search)}%`) : undefined;
  return ex
    .select(row)
    .from(accounts)
    .innerJoin(users, eq(users.id, accounts.userId))
    .where(and(isBuilder, filter))
    .orderBy(asc(users.email))
    .limit(limit);
}

export async function findBuilderAccount(
  by: { accountId: string } | { email: string },
  ex: Executor = db(),
): Promise<BuilderAccountRow | undefined> {
  const match = "accountId" in by ? eq(accounts.accountId, by.accountId) : eq(users.email, by.email);
  const [found] = await ex
    .select(row)
    .from(accounts)
    .innerJoin(users, eq(users.id, accounts.userId))
    .where(and(isBuilder, match));
  return found;
}

/** Sets the plan and/or the admin flag of one account (only what is given). */
export async function updateBuilderAccount(
  accountId: string,
  changes: { plan?: string; isAdmin?: boolean },
  ex: Executor = db(),
): Promise<void> {
  await ex
    .update(accounts)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(accounts.accountId, accountId));
}
