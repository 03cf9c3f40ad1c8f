import { and, eq, lte, sql } from "drizzle-orm";
import { db, type Executor } from "../client";
import {
  type AppMembership,
  type AppPaymentConnection,
  appMemberships,
  appPaymentConnections,
  appSettings,
  apps,
} from "../schema";

// Paid memberships: an app's payment connection and its end users' memberships. The token
// column holds what lib/payments sealed; nothing here reads or writes a token in clear.

export async function findPaymentConnection(
  appId: string,
  ex: Executor = db(),
): Promise<AppPaymentConnection | undefined> {
  const [row] = await ex.select().from(appPaymentConnections).where(eq(appPaymentConnections.appId, appId));
  return row;
}

type ConnectionValues = Pick<
  AppPaymentConnection,
  "appId" | "accessToken" | "productId" | "productName" | "productUrl"
>;

/** Connecting again (another product, a new token, a resync) replaces the app's connection. */
export async function upsertPaymentConnection(values: ConnectionValues, ex: Executor = db()) {
  const [row] = await ex
    .insert(appPaymentConnections)
    .values({ ...values, provider: "gumroad" })
    .onConflictDoUpdate({
      target: appPaymentConnections.appId,
      set: {
        accessToken: values.accessToken,
        productId: values.productId,
        productName: values.productName,
        productUrl: values.productUrl,
        updatedAt: sql`now()`,
      },
    })
    .returning();
  return row!;
}

export async function deletePaymentConnection(appId: string, ex: Executor = db()): Promise<void> {
  await ex.delete(appPaymentConnections).where(eq(appPaymentConnections.appId, appId));
}

/**
 * Everything a membership check reads, in one round trip: whether the app's settings switch paid
 * memberships on, its connection (product, sealed token) and the end user's membership, if any.
 * Undefined when the app does not exist.
 */
/**
 * Built and prepared once per database instance (as the session query): every tool run reads it
 * before the model is asked, so its SQL is not rebuilt on each call.
 */
function membershipGateQuery(ex: Executor) {
  return ex
    .select({
      enabled: sql<boolean>`coalesce((${appSettings.settings}->>'isPaidMembershipsEnabled')::boolean, false)`,
      connection: appPaymentConnections,
      membership: appMemberships,
    })
    .from(apps)
    .leftJoin(appSettings, eq(appSettings.appId, apps.id))
    .leftJoin(appPaymentConnections, eq(appPaymentConnections.appId, apps.id))
    .leftJoin(
      appMemberships,
      and(
        eq(appMemberships.appId, apps.id),
        // No user (null): `user_id = null` holds for no row, so the join adds nothing.
        eq(appMemberships.userId, sql.placeholder("userId")),
      ),
    )
    .where(eq(apps.id, sql.placeholder("appId")))
    .prepare("find_membership_gate");
}

const preparedGate = new WeakMap<Executor, ReturnType<typeof membershipGateQuery>>();

export async function findMembershipGate(appId: string, userId: string | null, ex: Executor = db()) {
  let query = preparedGate.get(ex);
  if (!query) {
    query = membershipGateQuery(ex);
    preparedGate.set(ex, query);
  }
  const [row] = await query.execute({ appId, userId });
  return row;
}

type MembershipValues = Pick<
  AppMembership,
  "appId" | "userId" | "productId" | "status" | "saleId" | "subscriptionId" | "verifiedAt" | "recheckAt"
>;

/** The end user's membership as Gumroad last confirmed it (one row per app and user). */
export async function upsertMembership(values: MembershipValues, ex: Executor = db()) {
  const [row] = await ex
    .insert(appMemberships)
    .values({ ...values, provider: "gumroad" })
    .onConflictDoUpdate({
      target: [appMemberships.appId, appMemberships.userId],
      set: {
        productId: values.productId,
        status: values.status,
        saleId: values.saleId,
        subscriptionId: values.subscriptionId,
        verifiedAt: values.verifiedAt,
        recheckAt: values.recheckAt,
        updatedAt: sql`now()`,
      },
    })
    .returning();
  return row!;
}

/**
 * Takes the recheck of a membership that is due: moves its recheck time to `until` and answers
 * true, for one caller only. Parallel requests of the same end user find it taken and go on with
 * the membership as stored, so one due recheck makes one call to Gumroad.
 */
export async function claimMembershipRecheck(
  appId: string,
  userId: string,
  until: Date,
  ex: Executor = db(),
): Promise<boolean> {
  const rows = await ex
    .update(appMemberships)
    .set({ recheckAt: until, updatedAt: sql`now()` })
    .where(
      and(
        eq(appMemberships.appId, appId),
        eq(appMemberships.userId, userId),
        lte(appMemberships.recheckAt, sql`now()`),
      ),
    )
    .returning({ appId: appMemberships.appId });
  return rows.length > 0;
}

/** A recheck that reached no answer: the membership stands as it was until `recheckAt`. */
export async function setMembershipRecheck(
  appId: string,
  userId: string,
  recheckAt: Date,
  ex: Executor = db(),
): Promise<void> {
  await ex
    .update(appMemberships)
    .set({ recheckAt, updatedAt: sql`now()` })
    .where(and(eq(appMemberships.appId, appId), eq(appMemberships.userId, userId)));
}
