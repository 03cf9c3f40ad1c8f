import { and, eq, isNull, sql } from "drizzle-orm";
import { db, type Executor } from "../client";
import { accounts, apps, type User, users } from "../schema";

const tenantIs = (tenantId: string | null) =>
  tenantId ? eq(users.tenantId, tenantId) : isNull(users.tenantId);

export async function findUserByEmail(tenantId: string | null, email: string, ex: Executor = db()) {
  const [row] = await ex
    .select()
    .from(users)
    .where(and(tenantIs(tenantId), eq(users.email, email)));
  return row;
}

export async function findUserById(id: string, ex: Executor = db()): Promise<User | undefined> {
  const [row] = await ex.select().from(users).where(eq(users.id, id));
  return row;
}

export async function insertUser(
  values: {
    tenantId: string | null;
    email: string;
    passwordHash?: string | null;
    emailVerifiedAt?: Date | null;
    googleSub?: string;
    name?: string;
  },
  ex: Executor = db(),
): Promise<User | undefined> {
  // ON CONFLICT DO NOTHING: two signups racing on one email give one user and one clear error.
  const [row] = await ex.insert(users).values(values).onConflictDoNothing().returning();
  return row;
}

export async function updateUser(
  id: string,
  values: Partial<
    Pick<User, "email" | "emailVerifiedAt" | "passwordHash" | "disabledAt" | "googleSub" | "name">
  >,
  opts: { bumpSessionVersion?: boolean } = {},
  ex: Executor = db(),
) {
  const [row] = await ex
    .update(users)
    .set({
      ...values,
      updatedAt: new Date(),
      ...(opts.bumpSessionVersion ? { sessionVersion: sql`${users.sessionVersion} + 1` } : {}),
    })
    .where(eq(users.id, id))
    .returning();
  return row;
}

/**
 * The one query behind every authenticated request: the user, their account (if created)
 * and the header of the account's app. Built and prepared once per database instance:
 * rebuilding the SQL on every call cost more CPU than the query itself.
 */
function sessionUserQuery(ex: Executor) {
  return ex
    .select({
      id: users.id,
      tenantId: users.tenantId,
      email: users.email,
      emailVerifiedAt: users.emailVerifiedAt,
      disabledAt: users.disabledAt,
      sessionVersion: users.sessionVersion,
      account: {
        accountId: accounts.accountId,
        accountType: accounts.accountType,
        plan: accounts.plan,
        subscriptionId: accounts.subscriptionId,
        planSubscriptionStatus: accounts.planSubscriptionStatus,
        planSubscriptionCancelledAt: accounts.planSubscriptionCancelledAt,
        appId: accounts.appId,
        appHeader: apps.header,
        hasBusinessInfo: accounts.hasBusinessInfo,
        hasPaidAppPackage: accounts.hasPaidAppPackage,
        isAdmin: accounts.isAdmin,
      },
    })
    .from(users)
    .leftJoin(accounts, eq(accounts.userId, users.id))
    .leftJoin(apps, eq(apps.id, accounts.appId))
    .where(eq(users.id, sql.placeholder("id")))
    .prepare("find_session_user");
}

const preparedSessionUser = new WeakMap<Executor, ReturnType<typeof sessionUserQuery>>();

export async function findSessionUser(userId: string, ex: Executor = db()) {
  let query = preparedSessionUser.get(ex);
  if (!query) {
    query = sessionUserQuery(ex);
    preparedSessionUser.set(ex, query);
  }
  const [row] = await query.execute({ id: userId });
  if (!row) return undefined;
  const account = row.account?.accountId ? (row.account as SessionAccount) : null;
  return { ...row, account };
}

/** The account fields of spec 1 §3, as every authenticated request sees them. */
export type SessionAccount = {
  accountId: string;
  accountType: "builder" | "other";
  plan: string;
  subscriptionId: string | null;
  planSubscriptionStatus: string | null;
  planSubscriptionCancelledAt: Date | null;
  appId: string | null;
  appHeader: string | null;
  hasBusinessInfo: boolean;
  hasPaidAppPackage: boolean;
  isAdmin: boolean;
};

export type SessionUserRow = NonNullable<Awaited<ReturnType<typeof findSessionUser>>>;
