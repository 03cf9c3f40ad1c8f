import { z } from "zod";
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
