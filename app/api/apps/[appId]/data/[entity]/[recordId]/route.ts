import { runtimePreflight } from "@/lib/api/cors";
import { route } from "@/lib/api/route";
import { deleteRecord, getRecord, updateRecord } from "@/lib/app-data/records";
import {
  DataRecordParams,
  DataUpdateQuery,
  RecordAnswer,
  RecordDeletedAnswer,
  RecordFields,
} from "@/lib/app-data/schemas";

// GET /api/apps/{appId}/data/{entity}/{recordId} - one record the caller may read
export const GET = route(
  {
    auth: "appToken",
    params: DataRecordParams,
    summary: "One record of the entity, when the caller may read it (a space app's data client)",
    response: RecordAnswer,
  },
  ({ params, bearer, ip }) => getRecord({ ...params, bearer, ip }, params.recordId),
);

// PATCH /api/apps/{appId}/data/{entity}/{recordId}?ifUpdatedAt= - changes fields of a record
export const PATCH = route(
  {
    auth: "appToken",
    params: DataRecordParams,
    query: DataUpdateQuery,
    body: RecordFields,
    summary:
      "Changes fields of a record the caller may write; the whole record is checked against the schema",
    response: RecordAnswer,
    errors: [409, 413, 429],
  },
  ({ params, query, body, bearer, ip }) =>
    updateRecord({ ...params, bearer, ip }, params.recordId, body, query.ifUpdatedAt),
);

// DELETE /api/apps/{appId}/data/{entity}/{recordId} - deletes a record the caller may write
export const DELETE = route(
  {
    auth: "appToken",
    params: DataRecordParams,
    summary: "Deletes a record the caller may write (a space app's data client)",
    response: RecordDeletedAnswer,
    errors: [429],
  },
  ({ params, bearer, ip }) => deleteRecord({ ...params, bearer, ip }, params.recordId),
);

// OPTIONS /api/apps/{appId}/data/{entity}/{recordId} - the CORS preflight of the app's frame
export const OPTIONS = route(
  { auth: "appToken", params: DataRecordParams, summary: "CORS preflight of a space app's frame" },
  async ({ req }) => runtimePreflight(req, ["GET", "PATCH", "DELETE"]),
);
