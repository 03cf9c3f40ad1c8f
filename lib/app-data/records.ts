import "server-only";
import type { z } from "zod";
import {
  findRuntimeRecord,
  insertRuntimeRecord,
  insertRuntimeRecords,
  listRuntimeRecords,
  type RuntimeRecord,
  replaceRuntimeRecord,
} from "@/db/queries/app-data";
import { deleteEntityRecord } from "@/db/queries/entity-records";
import { APP_DATA_FILTER_FIELDS_MAX } from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { reserveAnonymousWrites } from "@/lib/security/rate-limit";
import { entityPath } from "@/lib/space/files";
import { isStorableText } from "@/lib/storable-text";
import {
  type AccessLevel,
  type Actor,
  mayCreate,
  mayRead,
  mayWrite,
  readScope,
  signInWouldHelp,
} from "./access";
import { callerOf, serviceCallerOf } from "./actor";
import { checkedFields as checked } from "./check-fields";
import { type EntitySchema, entitySchemaOf } from "./entity-schema";
import type { DataListQuery, RecordAnswer, RecordListAnswer } from "./schemas";

// The records of a space app's entities as its own code reads and writes them (the data client,
// `@app/client`): every call is decided by the entity's access levels (./access.ts) for the
// caller its token names (./actor.ts), and every record written is checked against the entity's
// JSON schema (./entity-schema.ts). The Database panel's own routes (lib/space/entity-records.ts)
// are the builder's and bypass neither: they never reach here. The app's backend functions call
// these same services as the app's service role (SERVICE_ROLE): every level lets them through, the
// schema still checks what they write.

type Record = z.infer<typeof RecordAnswer>;
type RecordList = z.infer<typeof RecordListAnswer>;
type Fields = { [key: string]: unknown };

/**
 * The mark of a call made as the app's service role. A symbol: no JSON body, query or path can
 * spell it, so no route's parsed input can carry it; only lib/functions' gateway passes it, for
 * the app its function process belongs to.
 */
export const SERVICE_ROLE: unique symbol = Symbol("app service role");

/** A call of the app's pages (its end user's bearer token, or none), or of its own functions. */
export type DataCall =
  | { appId: string; entity: string; bearer: string | null; ip: string }
  | { appId: string; entity: string; role: typeof SERVICE_ROLE };

type Opened = { appId: string; entity: string; actor: Actor; schema: EntitySchema };

async function open(call: DataCall): Promise<Opened> {
  const path = entityPath(call.entity);
  const { app, actor } =
    "role" in call && call.role === SERVICE_ROLE
      ? await serviceCallerOf(call.appId, path)
      : await callerOf(call.appId, "bearer" in call ? call.bearer : null, path);
  // The User entity is the app's end users (auth.me()), not records.
  if (call.entity === "User" || !app.entityHash || app.entitySchema === null) {
    throw new AppError("NOT_FOUND", "entityNotFound", "ENTITY_NOT_FOUND");
  }
  return {
    appId: app.id,
    entity: call.entity,
    actor,
    schema: entitySchemaOf(call.entity, app.entityHash, app.entitySchema),
  };
}

const view = (r: RuntimeRecord): Record => ({
  ...r.data,
  id: r.id,
  creatorId: r.creatorId,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

function refused(level: AccessLevel, actor: Actor): AppError {
  return signInWouldHelp(level, actor)
    ? new AppError("UNAUTHENTICATED", "appDataSignInRequired")
    : new AppError("FORBIDDEN", "appDataForbidden");
}

const notFound = () => new AppError("NOT_FOUND", "entityRecordNotFound", "RECORD_NOT_FOUND");

/** A list's `filter`: a JSON object of the entity's fields and plain values. */
function filterOf(schema: EntitySchema, raw: string | undefined): Fields | undefined {
  if (raw === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = null;
  }
  // JSON escapes can spell a NUL or a lone surrogate that the query string itself did not hold:
  // no stored value holds either, and PostgreSQL refuses them in a jsonb parameter.
  const plain = (v: unknown) =>
    (typeof v === "string" && isStorableText(v)) ||
    typeof v === "boolean" ||
    (typeof v === "number" && Number.isFinite(v));
  const ok =
    typeof parsed === "object" &&
    parsed !== null &&
    !Array.isArray(parsed) &&
    Object.keys(parsed).length <= APP_DATA_FILTER_FIELDS_MAX &&
    Object.entries(parsed).every(([k, v]) => schema.fields.has(k) && plain(v));
  if (!ok) {
    const err = new AppError("BAD_REQUEST", "appDataFilterInvalid", "VALIDATION_FAILED");
    err.field = "filter";
    throw err;
  }
  return parsed as Fields;
}

/** GET .../data/{Entity}: the rows this caller may read, in the asked order, a page at a time. */
export async function listRecords(call: DataCall, query: DataListQuery): Promise<RecordList> {
  const { appId, entity, actor, schema } = await open(call);
  const contains = filterOf(schema, query.filter);
  const scope = readScope(schema.permissions.read, actor);
  // Nothing to read is an empty list: it tells nobody whether records exist.
  if (scope === "nothing") return { records: [], nextCursor: null };
  const [micros, id] = query.cursor?.split("_") ?? [];
  const rows = await listRuntimeRecords({
    appId,
    entity,
    limit: query.limit + 1,
    order: query.sort.endsWith("updatedAt") ? "updatedAt" : "createdAt",
    direction: query.sort.startsWith("-") ? "desc" : "asc",
    after: micros && id ? { micros, id } : null,
    creatorId: scope === "own" && actor.kind === "user" ? actor.userId : undefined,
    contains,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const at = last && (query.sort.endsWith("updatedAt") ? last.updatedMicros : last.createdMicros);
  return {
    records: page.map(view),
    nextCursor: rows.length > query.limit && last ? `${at}_${last.id}` : null,
  };
}

/** GET .../data/{Entity}/{id}: a record this caller may read; any other is not found. */
export async function getRecord(call: DataCall, recordId: string): Promise<Record> {
  const { appId, entity, actor, schema } = await open(call);
  const row = await findRuntimeRecord(appId, entity, recordId);
  if (!row || !mayRead(schema.permissions.read, actor, row)) throw notFound();
  return view(row);
}

async function assertMayCreate(call: DataCall, opened: Opened, records = 1): Promise<void> {
  const level = opened.schema.permissions.write;
  if (!mayCreate(level, opened.actor)) throw refused(level, opened.actor);
  if (opened.actor.kind === "anonymous") await reserveAnonymousWrites(opened.appId, ipOf(call), records);
}

const ipOf = (call: DataCall) => ("ip" in call ? call.ip : "");

const creatorOf = (actor: Actor) => (actor.kind === "user" ? actor.userId : null);

/** POST .../data/{Entity} */
export async function createRecord(call: DataCall, fields: Fields): Promise<Record> {
  const opened = await open(call);
  await assertMayCreate(call, opened);
  const data = checked(opened.schema, fields);
  return view(
    await insertRuntimeRecord(opened.appId, opened.entity, { creatorId: creatorOf(opened.actor), data }),
  );
}

/** POST .../data/{Entity}/bulk: every record is checked before any is stored; all or none. */
export async function bulkCreateRecords(call: DataCall, records: Fields[]): Promise<{ records: Record[] }> {
  const opened = await open(call);
  await assertMayCreate(call, opened, records.length);
  const creatorId = creatorOf(opened.actor);
  const rows = records.map((r, i) => ({ creatorId, data: checked(opened.schema, r, `records.${i}.`) }));
  return { records: (await insertRuntimeRecords(opened.appId, opened.entity, rows)).map(view) };
}

/** A record the caller may change: readable (else not found) and writable (else refused). */
async function writable(call: DataCall, recordId: string): Promise<Opened & { row: RuntimeRecord }> {
  const opened = await open(call);
  const row = await findRuntimeRecord(opened.appId, opened.entity, recordId);
  const { read, write } = opened.schema.permissions;
  if (!row || !mayRead(read, opened.actor, row)) throw notFound();
  if (!mayWrite(write, opened.actor, row)) throw refused(write, opened.actor);
  if (opened.actor.kind === "anonymous") await reserveAnonymousWrites(opened.appId, ipOf(call));
  return { ...opened, row };
}

const changed = () => new AppError("CONFLICT", "appDataRecordChanged", "RECORD_CHANGED");

/**
 * PATCH .../data/{Entity}/{id}: the patch's fields replace the record's, and the whole is checked.
 * Written only if nobody wrote it since it was read (else 409), and, with `ifUpdatedAt`, only if
 * it is still as the client saw it.
 */
export async function updateRecord(
  call: DataCall,
  recordId: string,
  patch: Fields,
  ifUpdatedAt?: string,
): Promise<Record> {
  const { appId, entity, schema, row } = await writable(call, recordId);
  if (ifUpdatedAt && new Date(ifUpdatedAt).getTime() !== row.updatedAt.getTime()) throw changed();
  const data = checked(schema, { ...row.data, ...patch });
  const saved = await replaceRuntimeRecord(appId, entity, recordId, data, row.updatedMicros);
  if (!saved) throw changed();
  return view(saved);
}

/** DELETE .../data/{Entity}/{id} */
export async function deleteRecord(call: DataCall, recordId: string): Promise<{ deleted: true }> {
  const { appId, entity } = await writable(call, recordId);
  if (!(await deleteEntityRecord(appId, entity, recordId))) throw notFound();
  return { deleted: true };
}
