import { and, desc, eq, gt, isNull, ne, sql } from "drizzle-orm";
import { db, type Executor } from "../client";
import { accounts, apps, type SessionRow, sessions, users } from "../schema";

export async function insertSession(
  values: { userId: string; expiresAt: Date; userAgent?: string | null; ip?: string | null },
  ex: Executor = db(),
): Promise<SessionRow> {
  const [row] = await ex.insert(sessions).values(values).returning();
  return row!;
}

/**
 * Ends one session of a user (the user id guards against ending somebody else's); ending an
 * ended one changes nothing. Answers whether the session is the user's.
 */
export async function revokeSession(id: string, userId: string, ex: Executor = db()): Promise<boolean> {
  const rows = await ex
    .update(sessions)
    .set({ revokedAt: sql`coalesce(${sessions.revokedAt}, now())` })
    .where(and(eq(sessions.id, id), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  return rows.length === 1;
}

/** Ends every session of a user, or every one but `keep` (the session that asked). */
export async function revokeUserSessions(userId: string, keep?: string, ex: Executor = db()) {
  await ex
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(
      and(eq(sessions.userId, userId), isNull(sessions.revokedAt), keep ? ne(sessions.id, keep) : undefined),
    );
}

/** The live sessions of a user, most recently used first. */
export async function listLiveSessions(userId: string, idleSince: Date, ex: Executor = db()) {
  return ex
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      userAgent: sessions.userAgent,
      ip: sessions.ip,
    })
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, new Date()),
        gt(sessions.lastSeenAt, idleSince),
      ),
    )
    .orderBy(desc(sessions.lastSeenAt));
}

/** Moves the idle clock of a session forward. */
export async function touchSession(id: string, ex: Executor = db()): Promise<void> {
  await ex.update(sessions).set({ lastSeenAt: new Date() }).where(eq(sessions.id, id));
}

/**
 * The one query behind every authenticated request: the session, its user, their account (if
 * created) and the header of the account's app. Built and prepared once per database instance:
 * rebuilding the SQL on every call cost more CPU than the query itself.
 */
function sessionQuery(ex: Executor) {
  return ex
    .select({
      sessionId: sessions.id,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      revokedAt: sessions.revokedAt,
      id: users.id,
      tenantId: users.tenantId,
      email: users.email,
      emailVerifiedAt: users.emailVerifiedAt,
      disabledAt: users.disabledAt,
      appRole: users.appRole,
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
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(accounts, eq(accounts.userId, users.id))
    .leftJoin(apps, eq(apps.id, accounts.appId))
    .where(eq(sessions.id, sql.placeholder("id")))
    .prepare("find_session");
}

const preparedSession = new WeakMap<Executor, ReturnType<typeof sessionQuery>>();

/** A session with its user and account, whatever its state (the caller decides if it is live). */
export async function findSession(sessionId: string, ex: Executor = db()) {
  let query = preparedSession.get(ex);
  if (!query) {
    query = sessionQuery(ex);
    preparedSession.set(ex, query);
  }
  const [row] = await query.execute({ id: sessionId });
  if (!row) return undefined;
  const account = row.account?.accountId ? (row.account as SessionAccount) : null;
  return { ...row, account };
}

/** The account's fields, as every authenticated request sees them. */
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

export type SessionUserRow = NonNullable<Awaited<ReturnType<typeof findSession>>>;

/** Sessions past their absolute lifetime, or revoked, are deleted after a grace period. */
export async function deleteDeadSessions(olderThan: Date, ex: Executor = db()): Promise<number> {
  const rows = await ex
    .delete(sessions)
    .where(
      sql`${sessions.expiresAt} < ${olderThan} OR ${sessions.revokedAt} < ${olderThan} OR ${sessions.lastSeenAt} < ${olderThan}`,
    )
    .returning({ id: sessions.id });
  return rows.length;
}
