import { z } from "zod";
import { CONTEXT_ITEM_SOURCES, CONTEXT_ITEM_STATUSES, CONTEXT_ITEM_TYPES } from "@/db/schema";
import { storableString } from "@/lib/storable-text";

// The payloads of the context data calls (/api/context/...: list, ingest text or a file).

export const ContextListQuery = z.object({
  appId: z.uuid(),
  // "unsynced" asks for the items still on their way (unsynced, pending, running): the ones the
  // dialog keeps watching.
  status: z.enum(["unsynced"]).optional(),
});

export const ContextAppQuery = z.object({ appId: z.uuid() });

// `replacing`: the item the new one replaces (replaceDataItem follows); the data-item limit does
// not count it.
const replacing = z.uuid().optional();

export const IngestQuery = ContextAppQuery.extend({ replacing });

// The emptiness check is the service's, so that it answers with the spec's own words. Pasted text
// is a document, like an uploaded file: a NUL in it is dropped (lib/context/items.ts), not refused.
export const IngestTextBody = z
  .object({ context: z.string().optional().default("") })
  .meta({ examples: [{ context: "Opening hours: 9 to 5, Monday to Friday." }] });

// The file's name rides in the query, since the body is the file's bytes; its extension says
// which type the builder chose, and the content must be of that type.
export const IngestFileQuery = z.object({
  appId: z.uuid(),
  name: storableString().trim().min(1).max(255).optional(),
  replacing,
});

export const ContextItemParams = z.object({ id: z.uuid() });

export const RenameContextItemBody = z
  .object({ name: storableString().trim().min(1).max(200) })
  .meta({ examples: [{ name: "Price list" }] });

export const ReplaceDataItemParams = z.object({ appId: z.uuid() });

export const ReplaceDataItemBody = z
  .object({ oldItemId: z.uuid(), newItemId: z.uuid() })
  .refine((b) => b.oldItemId !== b.newItemId, {
    message: "newItemId must differ from oldItemId",
    path: ["newItemId"],
  })
  .meta({
    examples: [
      {
        oldItemId: "3f2b8c1e-6d4a-4b7e-9a1c-2e5f7d9b0c11",
        newItemId: "8a9d0e2f-1b3c-4d5e-8f7a-6b5c4d3e2f10",
      },
    ],
  });

// Answers of the context data calls, as the client receives them.

/** A data source as the dialog lists it (its text and storage key are not sent). */
export const ContextItemAnswer = z.object({
  id: z.uuid(),
  name: z.string(),
  type: z.enum(CONTEXT_ITEM_TYPES),
  source: z.enum(CONTEXT_ITEM_SOURCES),
  status: z.enum(CONTEXT_ITEM_STATUSES),
  /** Why the last ingestion failed, in words the builder can read. */
  error: z.string().nullable(),
  /** Characters of text, or bytes of a file. */
  size: z.number().int().nonnegative(),
  createdAt: z.iso.datetime(),
  lastSyncedAt: z.iso.datetime().nullable(),
  externalFileUrl: z.string().nullable(),
  externalFileId: z.string().nullable(),
  providerItemId: z.string().nullable(),
  provider: z.string().nullable(),
});

/** The data sources' statuses once, as GET /api/context/events answers a client that asks for JSON. */
export const ContextStatusAnswer = z.object({
  contextItems: z.array(ContextItemAnswer.pick({ id: true, status: true, error: true, lastSyncedAt: true })),
});

/** GET /api/context/items: newest first, and whether the plan allows another. */
export const ContextItemsAnswer = z.object({
  contextItems: z.array(ContextItemAnswer),
  hasReachedDataLimit: z.boolean(),
});

/** The item added (text or file); its ingestion is queued, the answer does not wait for it. */
export const ContextItemIdAnswer = z.object({ contextItemId: z.uuid() });
export type ContextItemIdAnswer = z.infer<typeof ContextItemIdAnswer>;

/** The items added by one request (websites, connector files), in the request's order. */
export const ContextItemIdsAnswer = z.object({ contextItemIds: z.array(z.uuid()) });
export type ContextItemIdsAnswer = z.infer<typeof ContextItemIdsAnswer>;
