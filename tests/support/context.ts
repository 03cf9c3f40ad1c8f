import { db } from "@/db/client";
import { setContextItemStatus } from "@/db/queries/context";
import { writeItemContent } from "@/db/queries/context-content";
import { contextItems } from "@/db/schema";

/**
 * A synced text data source of the app holding these chunks, written as an ingestion writes them
 * (writeItemContent: chunks, tsvectors and BM25's statistics in one transaction).
 */
export async function syncedTextItem(appId: string, name: string, texts: readonly string[], id?: string) {
  const [row] = await db()
    .insert(contextItems)
    .values({ id, appId, name, type: "txt", source: "local files", status: "running", size: 1 })
    .returning();
  await writeItemContent(row!, async (writer, tx) => {
    await writer.addChunks(texts);
    await writer.flush();
    await setContextItemStatus(row!.id, "synced", {}, tx);
  });
  return row!;
}

/** A synced CSV item list of the app holding these rows, written as an ingestion writes them. */
export async function syncedRowsItem(appId: string, name: string, rows: readonly Record<string, string>[]) {
  const [row] = await db()
    .insert(contextItems)
    .values({ appId, name, type: "csv", source: "local files", status: "running", size: 1 })
    .returning();
  await writeItemContent(row!, async (writer, tx) => {
    for (const data of rows) await writer.addRow(data);
    await writer.flush();
    await setContextItemStatus(row!.id, "synced", {}, tx);
  });
  return row!;
}
