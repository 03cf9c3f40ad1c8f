import { and, eq, inArray, isNull, lt } from "drizzle-orm";
import { db, type Executor } from "../client";
import { type Upload, uploads } from "../schema";

type NewUpload = Pick<Upload, "appId" | "accountId" | "kind" | "toolId" | "key" | "contentType" | "size"> & {
  id: string;
};

/**
 * Records a stored object. A fixed key (a tool's thumbnail) that is already recorded is taken
 * over by the new row: the new id changes the served URL, so caches fetch the new image.
 */
export async function upsertUpload(values: NewUpload, ex: Executor = db()): Promise<Upload> {
  const [row] = await ex
    .insert(uploads)
    .values(values)
    .onConflictDoUpdate({
      target: uploads.key,
      set: {
        id: values.id,
        appId: values.appId,
        accountId: values.accountId,
        kind: values.kind,
        toolId: values.toolId,
        contentType: values.contentType,
        size: values.size,
        createdAt: new Date(),
      },
    })
    .returning();
  return row!;
}

export async function findUploadOfApp(
  appId: string,
  id: string,
  ex: Executor = db(),
): Promise<Upload | undefined> {
  const [row] = await ex
    .select()
    .from(uploads)
    .where(and(eq(uploads.appId, appId), eq(uploads.id, id)));
  return row;
}

export async function findUploadByKey(key: string, ex: Executor = db()): Promise<Upload | undefined> {
  const [row] = await ex.select().from(uploads).where(eq(uploads.key, key));
  return row;
}

/** Deletes the row only if it is still this upload (a thumbnail's key may have a newer one). */
export async function deleteUploadRow(appId: string, id: string, ex: Executor = db()): Promise<boolean> {
  const rows = await ex
    .delete(uploads)
    .where(and(eq(uploads.appId, appId), eq(uploads.id, id)))
    .returning({ id: uploads.id });
  return rows.length === 1;
}

export async function listAppUploadKeys(appId: string, ex: Executor = db()): Promise<string[]> {
  const rows = await ex.select({ key: uploads.key }).from(uploads).where(eq(uploads.appId, appId));
  return rows.map((r) => r.key);
}

/** Deletes the rows of a tool's uploads (they do not cascade with the tool), answering their keys. */
export async function deleteToolUploadRows(
  appId: string,
  toolId: string,
  ex: Executor = db(),
): Promise<string[]> {
  const rows = await ex
    .delete(uploads)
    .where(and(eq(uploads.appId, appId), eq(uploads.toolId, toolId)))
    .returning({ key: uploads.key });
  return rows.map((r) => r.key);
}

/** The run photos of an app among `ids` (photos its end users uploaded for runs); others are left out. */
export async function findRunPhotosOfApp(
  appId: string,
  ids: string[],
  ex: Executor = db(),
): Promise<Upload[]> {
  if (ids.length === 0) return [];
  return ex
    .select()
    .from(uploads)
    .where(and(eq(uploads.appId, appId), eq(uploads.kind, "run_photo"), inArray(uploads.id, ids)));
}

/** Records that a run used these run photos (the first use only). */
export async function markRunPhotosUsed(ids: string[], ex: Executor = db()): Promise<void> {
  if (ids.length === 0) return;
  await ex
    .update(uploads)
    .set({ usedAt: new Date() })
    .where(and(inArray(uploads.id, ids), eq(uploads.kind, "run_photo"), isNull(uploads.usedAt)));
}

/** Deletes the rows of run photos uploaded before `before` that no run used, answering their keys. */
export async function deleteUnusedRunPhotos(before: Date, ex: Executor = db()): Promise<string[]> {
  const rows = await ex
    .delete(uploads)
    .where(and(eq(uploads.kind, "run_photo"), isNull(uploads.usedAt), lt(uploads.createdAt, before)))
    .returning({ key: uploads.key });
  return rows.map((r) => r.key);
}
