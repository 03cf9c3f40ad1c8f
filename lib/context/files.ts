import "server-only";
import crypto from "node:crypto";
import Papa from "papaparse";
import type { App } from "@/db/schema";
import { readBodyCapped } from "@/lib/api/read-body";
import { AppError } from "@/lib/errors";
import { logError } from "@/lib/log";
import { formatMegabytes } from "@/lib/plans/features";
import type { OwnerPlan } from "@/lib/plans/owner-plan";
import { queueContextIngest } from "@/lib/queue/enqueue-context";
import { StorageError, storage } from "@/lib/storage";
import { deleteStoredObjects } from "@/lib/uploads/upload-image";
import { type ContextFileKind, detectKind, KIND_LABELS, KIND_MIME, kindOfName } from "./file-type";
import { type AddItemOptions, assertBelowDataLimit, createItemWithinLimit } from "./items";
import { assertProcessingLeft } from "./usage";

const NAME_MAX = 200;

/** The storage key of a context file: beside the app's images, under the owner's account. */
export function contextFileKey(
  app: Pick<App, "id" | "ownerAccountId">,
  itemId: string,
  kind: ContextFileKind,
) {
  return `accounts/${app.ownerAccountId}/apps/${app.id}/context/${itemId}.${kind}`;
}

/**
 * POST /api/context/ingest/file?appId=&name=: the body is the file's bytes. It is read here, not
 * by the route wrapper, because its cap is the app owner's plan's, known only once
 * the app is: a body over it is refused (413) from its declared length or as soon as the bytes
 * read pass it. The file is stored as it came, the item saved as Pending and its ingestion queued;
 * the answer does not wait for it.
 */
export async function ingestFile(
  app: App,
  owner: OwnerPlan,
  name: string | undefined,
  req: Request,
  opts: AddItemOptions = {},
) {
  await assertBelowDataLimit(app, owner, opts);
  await assertProcessingLeft(app, owner);
  const cap = owner.caps.maxUploadBytes;
  const bytes = await readBodyCapped(req, cap, {
    key: "contextFileTooLarge",
    vars: { size: formatMegabytes(cap) },
  });
  if (bytes.byteLength === 0) throw new AppError("BAD_REQUEST", "contextUploadFile", "context/no-file");

  const kind = detectKind(bytes);
  const named = name ? kindOfName(name) : undefined;
  if (name && !named) throw new AppError("BAD_REQUEST", "contextFileType", "context/file-type");
  if (!kind) {
    if (!named) throw new AppError("BAD_REQUEST", "contextFileType", "context/file-type");
    throw mismatch(named);
  }
  // Word's two formats are one choice in the dialog: a .doc saved as .docx is still Word.
  if (named && KIND_LABELS[named] !== KIND_LABELS[kind]) throw mismatch(named);
  if (kind === "csv") assertCsvHasRows(bytes);
  await assertProcessingLeft(app, owner, bytes.byteLength);

  const id = crypto.randomUUID();
  const key = contextFileKey(app, id, kind);
  try {
    await storage().put(key, bytes, KIND_MIME[kind]);
  } catch (err) {
    if (!(err instanceof StorageError)) throw err;
    logError("storage failed", { err: err.cause ?? err });
    throw new AppError("INTERNAL", err.userMessage, "STORAGE_ERROR");
  }
  try {
    await createItemWithinLimit(
      app,
      owner,
      {
        id,
        appId: app.id,
        name: (name ?? `${KIND_LABELS[kind]} file`).slice(0, NAME_MAX),
        type: kind === "docx" ? "doc" : kind,
        source: "local files",
        status: "pending",
        size: bytes.byteLength,
        content: null,
        fileKey: key,
      },
      opts,
    );
  } catch (err) {
    // Not saved (the plan's limit was reached meanwhile, ...): the file is not left behind.
    await deleteStoredObjects([key]);
    throw err;
  }
  await queueContextIngest(id);
  return { contextItemId: id };
}

const mismatch = (named: ContextFileKind) =>
  new AppError(
    "BAD_REQUEST",
    { key: "contextFileMismatch", vars: { type: KIND_LABELS[named] } },
    "context/file-mismatch",
  );

/** A CSV needs a header row and at least one row of data; only the start is parsed. */
function assertCsvHasRows(bytes: Uint8Array): void {
  // The first 64 KiB hold the header and a row of any sensible list; a cut character at the end is harmless.
  const head = new TextDecoder().decode(bytes.subarray(0, 64 * 1024));
  const parsed = Papa.parse<string[]>(head, { preview: 2, skipEmptyLines: "greedy" });
  const [header, row] = parsed.data;
  const filled = (cells: string[] | undefined) => Boolean(cells?.some((c) => c.trim() !== ""));
  if (!filled(header) || !filled(row)) {
    throw new AppError("BAD_REQUEST", "contextCsvNoRows", "context/csv-no-rows");
  }
}
