import "server-only";
import { BODY_CAPS } from "@/lib/api/body-caps";
import { readBodyCapped } from "@/lib/api/read-body";
import { errorResponse } from "@/lib/api/route";
import {
  bulkCreateRecords,
  createRecord,
  type DataCall,
  deleteRecord,
  getRecord,
  listRecords,
  SERVICE_ROLE,
  updateRecord,
} from "@/lib/app-data/records";
import {
  BulkCreateBody,
  DataListQuery,
  DataParams,
  DataRecordParams,
  DataUpdateQuery,
  RecordFields,
} from "@/lib/app-data/schemas";
import { AppError } from "@/lib/errors";
import { DATA_PATH_PREFIX } from "./egress-gateway";

const utf8 = new TextDecoder("utf-8", { fatal: true });

function jsonOf(bytes: Uint8Array): unknown {
  if (bytes.byteLength === 0) return {};
  try {
    return JSON.parse(utf8.decode(bytes));
  } catch {
    throw new AppError("BAD_REQUEST", "invalidInput", "INVALID_JSON");
  }
}

const notFound = () => new AppError("NOT_FOUND", "notFound", "NOT_FOUND");

/** The path's parts after the prefix, each decoded once; anything odd is not a data path. */
function partsOf(pathname: string): string[] {
  const parts = pathname.slice(DATA_PATH_PREFIX.length).split("/");
  try {
    return parts.map((p) => decodeURIComponent(p));
  } catch {
    throw notFound();
  }
}

/**
 * One call of a function's data client (at DATA_PATH_PREFIX/<Entity>[/<id>|/bulk][?query]), served as `appId`'s service role: the same services,
 * checks, messages and body cap as the data API's routes (app/api/apps/[appId]/data), but the app
 * is the one the gateway's door belongs to, never one the request names, and every entity's access
 * levels let the call through (lib/app-data/access.ts). Answers the routes' JSON, errors included.
 * `target` is the request line's path and query as received; `request` gives method and body.
 */
export async function serveFunctionData(appId: string, target: string, request: Request): Promise<Response> {
  const requestId = crypto.randomUUID();
  try {
    // The path as sent, not as a URL would make it: "/__data/Task/../x" must not become "/x".
    const rawPath = target.split("?")[0]!;
    const url = new URL(target, "http://gateway.invalid");
    if (!rawPath.startsWith(DATA_PATH_PREFIX)) throw notFound();
    const [entity, rest, ...more] = partsOf(rawPath);
    if (more.length > 0 || rest === "") throw notFound();
    const query = Object.fromEntries(url.searchParams);
    const body = async () => jsonOf(await readBodyCapped(request, BODY_CAPS.json));
    const method = request.method;
    let answer: unknown;
    if (rest === undefined) {
      const params = DataParams.parse({ appId, entity });
      const call: DataCall = { ...params, role: SERVICE_ROLE };
      if (method === "GET") answer = await listRecords(call, DataListQuery.parse(query));
      else if (method === "POST") answer = await createRecord(call, RecordFields.parse(await body()));
      else throw notFound();
    } else if (rest === "bulk" && method === "POST") {
      const params = DataParams.parse({ appId, entity });
      const { records } = BulkCreateBody.parse(await body());
      answer = await bulkCreateRecords({ ...params, role: SERVICE_ROLE }, records);
    } else {
      const { recordId, ...params } = DataRecordParams.parse({ appId, entity, recordId: rest });
      const call: DataCall = { ...params, role: SERVICE_ROLE };
      if (method === "GET") answer = await getRecord(call, recordId);
      else if (method === "PATCH") {
        const { ifUpdatedAt } = DataUpdateQuery.parse(query);
        answer = await updateRecord(call, recordId, RecordFields.parse(await body()), ifUpdatedAt);
      } else if (method === "DELETE") answer = await deleteRecord(call, recordId);
      else throw notFound();
    }
    return Response.json(answer);
  } catch (err) {
    return errorResponse(err, requestId);
  }
}
