import { z } from "zod";
import {
  APP_DATA_BULK_MAX,
  APP_DATA_DEPTH_MAX,
  APP_DATA_LIST_DEFAULT,
  APP_DATA_LIST_MAX,
} from "@/lib/constants";
import { messages } from "@/lib/messages";
import { ENTITY_NAME } from "@/lib/space/files";
import { isStorableJson, storableString } from "@/lib/storable-text";

// Requests and answers of the data API that a space app's own code calls through its data client
// (`@app/client`), shared by the routes, the services and the tests.

export const DataParams = z.object({ appId: z.uuid(), entity: storableString().regex(ENTITY_NAME) });
export const DataRecordParams = DataParams.extend({ recordId: z.uuid() });
export const RuntimeParams = z.object({ appId: z.uuid() });

export const DATA_SORTS = ["-createdAt", "createdAt", "-updatedAt", "updatedAt"] as const;

/** GET .../data/{Entity}: newest first by default; `filter` is a JSON object of field: value. */
export const DataListQuery = z.object({
  sort: z.enum(DATA_SORTS).default("-createdAt"),
  limit: z.coerce.number().int().min(1).max(APP_DATA_LIST_MAX).default(APP_DATA_LIST_DEFAULT),
  cursor: storableString()
    .regex(/^\d{1,18}_[0-9a-f-]{36}$/)
    .optional(),
  filter: storableString().max(2000).optional(),
});
export type DataListQuery = z.infer<typeof DataListQuery>;

/** PATCH .../data/{Entity}/{id}?ifUpdatedAt=: only when the record is still as the client saw it. */
export const DataUpdateQuery = z.object({ ifUpdatedAt: z.iso.datetime().optional() });

/** How deep a JSON value nests (iterative: a hostile body cannot overflow the stack). */
export function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop() as [unknown, number];
    if (typeof v !== "object" || v === null) continue;
    deepest = Math.max(deepest, d + 1);
    if (deepest > APP_DATA_DEPTH_MAX) return deepest;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return deepest;
}

/** A record's own fields as the client sends them: any JSON object the entity's schema accepts. */
export const RecordFields = z
  // JSON.parse made it, so it is JSON; its depth is checked before anything walks it recursively.
  .record(z.string(), z.unknown())
  .refine((v) => jsonDepth(v) <= APP_DATA_DEPTH_MAX, { message: messages.appDataTooDeep })
  .refine(isStorableJson, { message: messages.textNotStorable })
  .describe("The record's fields, checked against the entity's JSON schema")
  .meta({ examples: [{ title: "Book the train", done: false }] });

/**
 * PATCH /api/apps/{appId}/entities/{entity}/records/{recordId}: the Database panel's edit of one
 * cell. `null` clears it: the field is removed, and the entity's schema decides if it may be.
 */
export const PanelCellBody = z
  .object({
    field: storableString().min(1).max(200).describe("A top-level field of the record"),
    value: z
      .unknown()
      .refine((v) => v !== undefined, { message: messages.appDataFieldRequired })
      .refine((v) => jsonDepth(v) < APP_DATA_DEPTH_MAX, { message: messages.appDataTooDeep })
      .refine(isStorableJson, { message: messages.textNotStorable })
      .describe("The field's new JSON value; null clears it"),
  })
  .meta({ examples: [{ field: "title", value: "Book the train" }] });
export type PanelCellBody = z.infer<typeof PanelCellBody>;

export const BulkCreateBody = z
  .object({ records: z.array(RecordFields).min(1).max(APP_DATA_BULK_MAX) })
  .meta({ examples: [{ records: [{ title: "Buy milk" }, { title: "Call the plumber", done: true }] }] });

/** A record as the data client gets it: the built-in fields, then its own (flat). */
export const RecordAnswer = z
  .object({
    id: z.uuid(),
    creatorId: z.uuid().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .catchall(z.unknown());

export const RecordListAnswer = z.object({
  records: z.array(RecordAnswer),
  nextCursor: z.string().nullable(),
});
export const RecordsAnswer = z.object({ records: z.array(RecordAnswer) });
export const RecordDeletedAnswer = z.object({ deleted: z.literal(true) });

/** The signed-in user as the app's code sees them (auth.me()): built-in fields, then the User entity's. */
export const RuntimeUserAnswer = z
  .object({
    id: z.uuid(),
    email: z.string(),
    fullName: z.string().nullable(),
    role: z.enum(["admin", "user"]),
    createdAt: z.iso.datetime(),
  })
  .catchall(z.unknown());
export type RuntimeUser = z.infer<typeof RuntimeUserAnswer>;

/** POST /api/apps/{appId}/runtime/token: a token of this app for the page's signed-in user, or none. */
export const RuntimeTokenAnswer = z.object({
  token: z.string().nullable(),
  expiresAt: z.iso.datetime().nullable(),
  user: RuntimeUserAnswer.nullable(),
});
export type RuntimeTokenAnswer = z.infer<typeof RuntimeTokenAnswer>;
