import "server-only";
import { db, type Executor } from "@/db/client";
import { findAppById } from "@/db/queries/apps";
import {
  countContextItems,
  deleteContextItem,
  findAppContextItem,
  findContextItem,
  insertContextItem,
  listContextItems,
  lockAppContext,
  renameContextItem,
} from "@/db/queries/context";
import type { App, ContextItem, ContextItemStatus } from "@/db/schema";
import { canEditApp, isUuid } from "@/lib/apps/access";
import type { Session } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { ownerPlan } from "@/lib/plans/owner-plan";
import { queueContextIngest } from "@/lib/queue/enqueue-context";
import { storable } from "@/lib/storable-text";
import { deleteStoredObjects } from "@/lib/uploads/upload-image";
import { countCodePoints } from "./chunk-text";
import type { ContextItemIdAnswer } from "./schemas";
import { assertProcessingLeft } from "./usage";

/** The statuses of an item still on its way to Synced: the ones live updates follow. */
export const LIVE_STATUSES: readonly ContextItemStatus[] = ["unsynced", "pending", "running"];

// How many characters of a pasted text make up its default name.
const NAME_LENGTH = 40;

/** The plan limit is the app owner's: an admin editing someone's app adds under their plan. */
export async function dataItemLimit(app: App): Promise<number> {
  return (await ownerPlan(app.ownerAccountId)).caps.maxDataItems;
}

/** GET /api/context/items: the app's data sources and whether the plan allows another. */
export async function listAppContextItems(app: App, status?: "unsynced") {
  const [items, total, limit] = await Promise.all([
    listContextItems(app.id, status ? LIVE_STATUSES : undefined),
    countContextItems(app.id),
    dataItemLimit(app),
  ]);
  return {
    contextItems: items.map(({ appId: _appId, ...item }) => item),
    hasReachedDataLimit: total >= limit,
  };
}

/**
 * POST /api/context/ingest/text: saves the text as a pending item and queues its ingestion; the
 * answer does not wait for it. The count and the insert run under the app's lock, so parallel
 * requests cannot add more items than the plan allows.
 */
export async function ingestText(
  app: App,
  pasted: string,
  opts: AddItemOptions = {},
): Promise<ContextItemIdAnswer> {
  // PostgreSQL text cannot hold NUL; a pasted one carries no meaning anyway.
  const text = storable(pasted);
  if (!text.trim()) throw new AppError("BAD_REQUEST", "contextEnterText", "context/empty-text");
  const size = countCodePoints(text);
  await assertProcessingLeft(app, size);
  const item = await createItemWithinLimit(
    app,
    {
      appId: app.id,
      name: defaultName(text),
      type: "txt",
      source: "local files",
      status: "pending",
      size,
      content: text,
    },
    opts,
  );
  await queueContextIngest(item.id);
  return { contextItemId: item.id };
}

const dataLimitError = () =>
  new AppError("FORBIDDEN", "upgradeReasonDataItems", "PLAN_LIMIT", { upgradeReason: "dataItems" });

/**
 * How an item is added. `replacing`: the id of one of the app's items that the new one is to
 * replace (POST /api/tools/{appId}/replaceDataItem follows): the data-item limit does not count it,
 * so an app at its limit (lite: 1 item) can replace its item. Not one of the app's items: 404.
 */
export type AddItemOptions = { replacing?: string };

// The items the limit counts: all of the app's, but the one being replaced.
async function countedItems(app: App, opts: AddItemOptions, ex?: Executor): Promise<number> {
  const total = await countContextItems(app.id, ex);
  if (!opts.replacing) return total;
  if (!(await findAppContextItem(app.id, opts.replacing, ex))) {
    throw new AppError("NOT_FOUND", "contextItemNotFound");
  }
  return total - 1;
}

/** Refuses early (before an upload is read) when the app already holds the plan's items. */
export async function assertBelowDataLimit(app: App, opts: AddItemOptions = {}): Promise<void> {
  if ((await countedItems(app, opts)) >= (await dataItemLimit(app))) throw dataLimitError();
}

/**
 * Adds an item if the plan allows another. The count and the insert run under the app's lock, so
 * parallel requests cannot add more items than the plan allows.
 */
export async function createItemWithinLimit(
  app: App,
  values: Parameters<typeof insertContextItem>[0],
  opts: AddItemOptions = {},
): Promise<ContextItem> {
  const limit = await dataItemLimit(app);
  return db().transaction(async (tx) => {
    await lockAppContext(app.id, tx);
    if ((await countedItems(app, opts, tx)) >= limit) throw dataLimitError();
    return insertContextItem(values, tx);
  });
}

/**
 * Adds the items of one request together, if the plan allows them all: counted and inserted under
 * one lock, so a burst of requests cannot pass the limit between them.
 */
export async function createItemsWithinLimit(
  app: App,
  values: Parameters<typeof insertContextItem>[0][],
  opts: AddItemOptions = {},
): Promise<ContextItem[]> {
  const limit = await dataItemLimit(app);
  return db().transaction(async (tx) => {
    await lockAppContext(app.id, tx);
    if ((await countedItems(app, opts, tx)) + values.length > limit) throw dataLimitError();
    const items: ContextItem[] = [];
    for (const v of values) items.push(await insertContextItem(v, tx));
    return items;
  });
}

function defaultName(text: string): string {
  const line = text.trim().split(/\s+/).join(" ");
  const chars = Array.from(line);
  return chars.length > NAME_LENGTH ? `${chars.slice(0, NAME_LENGTH).join("")}…` : line;
}

/** An item whose app the caller may edit; anybody else gets the same 404 as for no item at all. */
export async function loadEditableItem(session: Session, id: string): Promise<ContextItem> {
  const item = isUuid(id) ? await findContextItem(id) : undefined;
  const app = item ? await findAppById(item.appId) : undefined;
  if (!item || !app || !canEditApp(session, app)) {
    throw new AppError("NOT_FOUND", "contextItemNotFound");
  }
  return item;
}

/** PATCH /api/context/{id} */
export async function renameItem(session: Session, id: string, name: string) {
  const item = await loadEditableItem(session, id);
  if (!(await renameContextItem(item.id, name))) throw new AppError("NOT_FOUND", "contextItemNotFound");
  return { ok: true };
}

/**
 * DELETE /api/context/{id}: the item, its chunks and rows (a job still queued for it finds
 * nothing), then its stored file; a failed object deletion is logged, the item is gone either way.
 */
export async function deleteItem(session: Session, id: string) {
  const item = await loadEditableItem(session, id);
  const deleted = await deleteContextItem(item.id);
  if (!deleted) throw new AppError("NOT_FOUND", "contextItemNotFound");
  await deleteStoredFile(deleted);
  return { ok: true };
}

// After the row: a failed object deletion is logged by deleteStoredObjects, the item is gone either way.
async function deleteStoredFile(deleted: { fileKey: string | null }) {
  if (deleted.fileKey) await deleteStoredObjects([deleted.fileKey]);
}

/**
 * POST /api/tools/{appId}/replaceDataItem: the new item takes the old one's place, which is
 * deleted with its chunks, rows and stored file. Both must be the app's items (an item of another
 * app is not found, as if it did not exist); checked and deleted under the app's lock, as items
 * are added.
 */
export async function replaceDataItem(app: App, oldItemId: string, newItemId: string) {
  const deleted = await db().transaction(async (tx) => {
    await lockAppContext(app.id, tx);
    const oldItem = await findAppContextItem(app.id, oldItemId, tx);
    const newItem = await findAppContextItem(app.id, newItemId, tx);
    if (!oldItem || !newItem) throw new AppError("NOT_FOUND", "contextItemNotFound");
    return deleteContextItem(oldItem.id, tx);
  });
  if (!deleted) throw new AppError("NOT_FOUND", "contextItemNotFound");
  await deleteStoredFile(deleted);
  return { ok: true };
}
