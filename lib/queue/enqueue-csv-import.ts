import "server-only";
import { QUEUES } from "@/db/job-queues";
import { AppError } from "@/lib/errors";
import { logError } from "@/lib/log";
import { boss } from "@/lib/queue/boss";

export type CsvImportJob = { importId: string };

/** Queues a stored CSV import; if the queue refuses it, the request fails with the spec's message. */
export async function queueCsvImport(importId: string): Promise<void> {
  try {
    await (await boss()).send(QUEUES.csvImport, { importId } satisfies CsvImportJob);
  } catch (err) {
    logError("csv import not queued", { importId, err });
    throw new AppError("INTERNAL", "csvImportFailed", "csv/not-queued");
  }
}
