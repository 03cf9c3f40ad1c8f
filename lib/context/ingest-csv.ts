import "server-only";
import { setContextItemStatus } from "@/db/queries/context";
import { writeItemContent } from "@/db/queries/context-content";
import type { ContextItem } from "@/db/schema";
import { LineChunker } from "./chunk-text";
import { openStoredFile, parseCsvStream, UnreadableFileError } from "./extract-file";

/**
 * Ingests a stored CSV as it is parsed: each row goes to context_rows and its line to the chunk
 * cutter, and both are written a batch at a time, so a worker's memory stays flat whatever the
 * file's size (an 11 MB list of 100k rows is never held whole). It all happens in one transaction
 * that first deletes the item's old chunks and rows and ends with Synced: a reader sees the old
 * content or the whole new one, never half. The chunks are those chunkLines makes of the rows'
 * lines: whole rows, packed.
 */
export async function ingestStoredCsv(item: Pick<ContextItem, "id" | "appId" | "fileKey">): Promise<void> {
  const body = await openStoredFile(item);
  await writeItemContent(item, async (writer, tx) => {
    const chunker = new LineChunker();
    const rows = await parseCsvStream(body, async (row) => {
      await writer.addRow(row.data);
      await writer.addChunks(chunker.push(row.line));
    });
    await writer.addChunks(chunker.end());
    await writer.flush();
    if (rows === 0) throw new UnreadableFileError("contextCsvNoRows");
    await setContextItemStatus(item.id, "synced", { lastSyncedAt: new Date() }, tx);
  }).catch(async (err) => {
    // A transaction that failed before the parsing began left the file open: it is closed.
    await body.cancel().catch(() => {});
    throw err;
  });
}
