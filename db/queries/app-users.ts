import { and, desc, eq, sql } from "drizzle-orm";
import { db, type Executor } from "../client";
import { users } from "../schema";

// The end users of one app as its builder manages them (the Database panel): every statement
// filters by the app's tenant, so a builder user or another app's end user is never read or changed.

const columns = {
  id: users.id,
  email: users.email,
  name: users.name,
  appRole: users.appRole,
  appData: users.appData,
  createdAt: users.createdAt,
  // Exact as PostgreSQL keeps it (a JS Date keeps milliseconds; a cursor rounded to them skips rows).
  micros: sql<string>`(extract(epoch from ${users.createdAt}) * 1000000)::bigint::text`,
};

export type AppUserRow = {
  id: string;
  email: string;
  name: string | null;
  appRole: "user" | "admin";
  appData: Record<string, unknown>;
  createdAt: Date;
  micros: string;
};

/** A page of the app's end users, newest first, after the cursor (the last user of the page before). */
export async function listAppUsers(
  appId: string,
  limit: number,
  after: { micros: string; id: string } | null,
  ex: Executor = db(),
): Promise<AppUserRow[]> {
  const cursor = after
    ? sql`(${users.createdAt}, ${users.id}) < (timestamptz 'epoch' + ${after.micros}::bigint * interval '1 microsecond', ${after.id}::uuid)`
    : undefined;
  return ex
    .select(columns)
    .from(users)
    .where(and(eq(users.tenantId, appId), cursor))
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(limit);
}

export async function countAppUsers(appId: string, ex: Executor = db()): Promise<number> {
  const [row] = await ex
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(eq(users.tenantId, appId));
  return row?.n ?? 0;
}

/** Sets an end user's role in their app; undefined when the app has no end user of that id. */
export async function setAppUserRole(
  appId: string,
  userId: string,
  role: "user" | "admin",
  ex: Executor = db(),
): Promise<AppUserRow | undefined> {
  const [row] = await ex
    .update(users)
    .set({ appRole: role, updatedAt: new Date() })
    .where(and(eq(users.id, userId), eq(users.tenantId, appId)))
    .returning(columns);
  return row;
}
