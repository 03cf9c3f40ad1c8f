import { and, asc, count, desc, eq, isNull, ne, sql } from "drizzle-orm";
import { db, type Executor, lockUntilCommit } from "../client";
import { type App, accounts, appClaims, appSettings, appStyles, apps, type Tool, tools } from "../schema";

export async function findAppById(id: string, ex: Executor = db()): Promise<App | undefined> {
  const [row] = await ex.select().from(apps).where(eq(apps.id, id));
  return row;
}

/**
 * An app with its owner account's plan (null once the account is gone), in one statement: the
 * plan decides the app's limits, and a request that edits the app reads it from here, not again.
 */
export async function findAppWithOwnerPlan(
  id: string,
  ex: Executor = db(),
): Promise<{ app: App; ownerPlan: string | null } | undefined> {
  const [row] = await ex
    .select({ app: apps, ownerPlan: accounts.plan })
    .from(apps)
    .leftJoin(accounts, eq(accounts.accountId, apps.ownerAccountId))
    .where(eq(apps.id, id));
  return row;
}

export async function insertApp(
  values: {
    id?: string;
    ownerAccountId: string;
    type?: App["type"];
    status?: App["status"];
    header?: string;
    content?: unknown;
  },
  ex: Executor = db(),
): Promise<App> {
  const [row] = await ex.insert(apps).values(values).returning();
  return row!;
}

/** Inserts the app unless its id exists: null when it did (a retried create). */
export async function insertAppIfMissing(
  values: { id: string; ownerAccountId: string; type: App["type"]; header: string; content: unknown },
  ex: Executor = db(),
): Promise<App | null> {
  const [row] = await ex.insert(apps).values(values).onConflictDoNothing({ target: apps.id }).returning();
  return row ?? null;
}

/** The builder's apps for /home, last edited first, with their tool counts. */
export async function listAppsByOwner(ownerAccountId: string, ex: Executor = db()) {
  return ex
    .select({
      id: apps.id,
      header: apps.header,
      type: apps.type,
      status: apps.status,
      updatedAt: apps.updatedAt,
      createdAt: apps.createdAt,
      // Qualified by hand: inside the subquery, bare column names would resolve to tools' own.
      toolsCount: sql<number>`(select count(*)::int from "tools" where "tools"."app_id" = "apps"."id")`,
    })
    .from(apps)
    .where(eq(apps.ownerAccountId, ownerAccountId))
    .orderBy(desc(apps.updatedAt), desc(apps.createdAt));
}

export async function countAppsByOwner(ownerAccountId: string, ex: Executor = db()): Promise<number> {
  const [row] = await ex.select({ n: count() }).from(apps).where(eq(apps.ownerAccountId, ownerAccountId));
  return row?.n ?? 0;
}

/**
 * Writes the app's content when it is still at `baseRevision`, and moves the revision on: one
 * statement, so two saves based on the same revision cannot both win. Null when the revision moved.
 */
export async function updateAppContentAt(
  id: string,
  baseRevision: number,
  values: { content: unknown; header: string },
  ex: Executor = db(),
): Promise<App | null> {
  const [row] = await ex
    .update(apps)
    .set({ ...values, revision: sql`${apps.revision} + 1`, updatedAt: new Date() })
    .where(and(eq(apps.id, id), eq(apps.revision, baseRevision)))
    .returning();
  return row ?? null;
}

export async function setAppStatus(
  id: string,
  status: App["status"],
  ex: Executor = db(),
): Promise<App | null> {
  const [row] = await ex
    .update(apps)
    .set({ status, updatedAt: new Date() })
    .where(eq(apps.id, id))
    .returning();
  return row ?? null;
}

/** Marks the app as edited now (a style, settings or tool save), for the list's order. */
export async function touchApp(id: string, ex: Executor = db()): Promise<void> {
  await ex.update(apps).set({ updatedAt: new Date() }).where(eq(apps.id, id));
}

export async function deleteAppRow(id: string, ex: Executor = db()): Promise<boolean> {
  const rows = await ex.delete(apps).where(eq(apps.id, id)).returning({ id: apps.id });
  return rows.length > 0;
}

export async function setAppOwner(id: string, ownerAccountId: string, ex: Executor = db()): Promise<void> {
  await ex.update(apps).set({ ownerAccountId, updatedAt: new Date() }).where(eq(apps.id, id));
}

// ---- style and settings: one record each, with its own revision ----

type RecordTable = typeof appStyles | typeof appSettings;

export async function findAppStyle(appId: string, ex: Executor = db()) {
  const [row] = await ex.select().from(appStyles).where(eq(appStyles.appId, appId));
  return row;
}

export async function findAppSettings(appId: string, ex: Executor = db()) {
  const [row] = await ex.select().from(appSettings).where(eq(appSettings.appId, appId));
  return row;
}

/**
 * Writes a style or settings record at `baseRevision` (0: the record does not exist yet).
 * Null when somebody else saved in between.
 */
async function writeRecordAt(
  table: RecordTable,
  column: "style" | "settings",
  appId: string,
  baseRevision: number,
  value: unknown,
  ex: Executor,
): Promise<{ revision: number } | null> {
  if (baseRevision === 0) {
    const [row] = await ex
      .insert(table)
      .values({ appId, [column]: value } as never)
      .onConflictDoNothing()
      .returning({ revision: table.revision });
    return row ?? null;
  }
  const [row] = await ex
    .update(table)
    .set({ [column]: value, revision: sql`${table.revision} + 1`, updatedAt: new Date() } as never)
    .where(and(eq(table.appId, appId), eq(table.revision, baseRevision)))
    .returning({ revision: table.revision });
  return row ?? null;
}

export const writeAppStyleAt = (appId: string, baseRevision: number, style: unknown, ex: Executor = db()) =>
  writeRecordAt(appStyles, "style", appId, baseRevision, style, ex);

export const writeAppSettingsAt = (
  appId: string,
  baseRevision: number,
  settings: unknown,
  ex: Executor = db(),
) => writeRecordAt(appSettings, "settings", appId, baseRevision, settings, ex);

// ---- tools of generated apps ----

export async function listTools(appId: string, ex: Executor = db()): Promise<Tool[]> {
  return ex
    .select()
    .from(tools)
    .where(eq(tools.appId, appId))
    .orderBy(asc(tools.position), asc(tools.createdAt));
}

export async function findTool(
  appId: string,
  toolId: string,
  ex: Executor = db(),
): Promise<Tool | undefined> {
  const [row] = await ex
    .select()
    .from(tools)
    .where(and(eq(tools.appId, appId), eq(tools.id, toolId)));
  return row;
}

export async function findToolByPath(
  appId: string,
  path: string,
  ex: Executor = db(),
): Promise<Tool | undefined> {
  const [row] = await ex
    .select()
    .from(tools)
    .where(and(eq(tools.appId, appId), eq(sql`lower(${tools.path})`, path.toLowerCase())));
  return row;
}

/** A published tool by its path alone (/tool/{path}): the oldest match among published apps. */
export async function findPublishedToolByPath(path: string, ex: Executor = db()) {
  const [row] = await ex
    .select({ tool: tools, app: apps })
    .from(tools)
    .innerJoin(apps, eq(apps.id, tools.appId))
    .where(
      and(
        eq(sql`lower(${tools.path})`, path.toLowerCase()),
        eq(apps.status, "active"),
        eq(tools.status, "active"),
      ),
    )
    .orderBy(asc(tools.createdAt))
    .limit(1);
  return row;
}

export async function countTools(appId: string, ex: Executor = db()): Promise<number> {
  const [row] = await ex.select({ n: count() }).from(tools).where(eq(tools.appId, appId));
  return row?.n ?? 0;
}

/** Active tools across every app of the account ("the plan's live tool limit"), but one tool. */
export async function countActiveTools(ownerAccountId: string, exceptToolId?: string, ex: Executor = db()) {
  const [row] = await ex
    .select({ n: count() })
    .from(tools)
    .innerJoin(apps, eq(apps.id, tools.appId))
    .where(
      and(
        eq(apps.ownerAccountId, ownerAccountId),
        eq(tools.status, "active"),
        exceptToolId ? ne(tools.id, exceptToolId) : undefined,
      ),
    );
  return row?.n ?? 0;
}

export async function insertTool(
  values: { appId: string; title: string; path: string; position: number; content: unknown },
  ex: Executor = db(),
): Promise<Tool> {
  const [row] = await ex.insert(tools).values(values).returning();
  return row!;
}

/** Writes a tool still at `baseRevision`; null when it moved on (or is gone). */
export async function updateToolAt(
  appId: string,
  toolId: string,
  baseRevision: number,
  values: Partial<Pick<Tool, "title" | "path" | "imageUrl" | "status" | "content">>,
  ex: Executor = db(),
): Promise<Tool | null> {
  const [row] = await ex
    .update(tools)
    .set({ ...values, revision: sql`${tools.revision} + 1`, updatedAt: new Date() })
    .where(and(eq(tools.appId, appId), eq(tools.id, toolId), eq(tools.revision, baseRevision)))
    .returning();
  return row ?? null;
}

export async function setToolPosition(appId: string, toolId: string, position: number, ex: Executor = db()) {
  await ex
    .update(tools)
    .set({ position })
    .where(and(eq(tools.appId, appId), eq(tools.id, toolId)));
}

export async function deleteToolRow(appId: string, toolId: string, ex: Executor = db()): Promise<boolean> {
  const rows = await ex
    .delete(tools)
    .where(and(eq(tools.appId, appId), eq(tools.id, toolId)))
    .returning({ id: tools.id });
  return rows.length > 0;
}

// ---- claim invitations ----

export async function findOpenClaim(appId: string, ex: Executor = db()) {
  const [row] = await ex
    .select()
    .from(appClaims)
    .where(and(eq(appClaims.appId, appId), isNull(appClaims.usedAt)))
    .orderBy(desc(appClaims.createdAt))
    .limit(1);
  return row;
}

export async function insertClaim(appId: string, createdByAccountId: string, ex: Executor = db()) {
  const [row] = await ex.insert(appClaims).values({ appId, createdByAccountId }).returning();
  return row!;
}

export async function findClaim(id: string, ex: Executor = db()) {
  const [row] = await ex.select().from(appClaims).where(eq(appClaims.id, id));
  return row;
}

/** Uses the invitation once: only the first of two parallel claims gets the row back. */
export async function useClaim(id: string, accountId: string, ex: Executor = db()) {
  const [row] = await ex
    .update(appClaims)
    .set({ usedAt: new Date(), usedByAccountId: accountId })
    .where(and(eq(appClaims.id, id), isNull(appClaims.usedAt)))
    .returning();
  return row ?? null;
}

/** Serialises tool activations of one account, so parallel ones cannot both pass the live limit. */
export async function lockAccountTools(ownerAccountId: string, ex: Executor) {
  await lockUntilCommit(`tools:${ownerAccountId}`, ex);
}

// ---- demo data (npm run db:seed): written whole, idempotent by id ----

export async function upsertDemoApp(
  values: {
    id: string;
    ownerAccountId: string;
    type: App["type"];
    status: App["status"];
    header: string;
    content: unknown;
  },
  ex: Executor = db(),
) {
  await ex
    .insert(apps)
    .values(values)
    .onConflictDoUpdate({
      target: apps.id,
      set: {
        type: values.type,
        status: values.status,
        header: values.header,
        content: values.content,
        updatedAt: new Date(),
      },
    });
}

export async function upsertDemoTool(
  values: {
    id: string;
    appId: string;
    title: string;
    path: string;
    status: Tool["status"];
    position: number;
    content: unknown;
    imageUrl?: string | null;
  },
  ex: Executor = db(),
) {
  const { id, appId, ...rest } = values;
  await ex
    .insert(tools)
    .values(values)
    .onConflictDoUpdate({ target: tools.id, set: { ...rest, updatedAt: new Date() } });
}

export async function upsertDemoRecords(
  appId: string,
  style: unknown,
  settings: unknown,
  ex: Executor = db(),
) {
  await ex
    .insert(appStyles)
    .values({ appId, style })
    .onConflictDoUpdate({ target: appStyles.appId, set: { style } });
  await ex
    .insert(appSettings)
    .values({ appId, settings })
    .onConflictDoUpdate({ target: appSettings.appId, set: { settings } });
}
