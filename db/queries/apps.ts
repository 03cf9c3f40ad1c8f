import { desc, eq } from "drizzle-orm";
import { db, type Executor } from "../client";
import { type App, apps } from "../schema";

export async function findAppById(id: string, ex: Executor = db()): Promise<App | undefined> {
  const [row] = await ex.select().from(apps).where(eq(apps.id, id));
  return row;
}

export async function insertApp(
  values: { ownerAccountId: string; type?: App["type"]; status?: App["status"]; header?: string },
  ex: Executor = db(),
): Promise<App> {
  const [row] = await ex.insert(apps).values(values).returning();
  return row!;
}

export async function listAppsByOwner(ownerAccountId: string, ex: Executor = db()) {
  return ex
    .select({
      id: apps.id,
      header: apps.header,
      type: apps.type,
      status: apps.status,
      updatedAt: apps.updatedAt,
    })
    .from(apps)
    .where(eq(apps.ownerAccountId, ownerAccountId))
    .orderBy(desc(apps.updatedAt));
}
