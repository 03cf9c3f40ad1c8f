import { runtimePreflight } from "@/lib/api/cors";
import { route } from "@/lib/api/route";
import { createRecord, listRecords } from "@/lib/app-data/records";
import {
  DataListQuery,
  DataParams,
  RecordAnswer,
  RecordFields,
  RecordListAnswer,
} from "@/lib/app-data/schemas";

// GET /api/apps/{appId}/data/{entity} - the records the caller may read, newest first by default
export const GET = route(
  {
    auth: "appToken",
    params: DataParams,
    query: DataListQuery,
    summary: "A page of the entity's records that the caller may read (a space app's data client)",
    response: RecordListAnswer,
  },
  ({ params, query, bearer, ip }) => listRecords({ ...params, bearer, ip }, query),
);

// POST /api/apps/{appId}/data/{entity} - creates a record, checked against the entity's schema
export const POST = route(
  {
    auth: "appToken",
    params: DataParams,
    body: RecordFields,
    summary: "Creates a record of the entity (a space app's data client)",
    response: RecordAnswer,
    errors: [413, 429],
  },
  ({ params, body, bearer, ip }) => createRecord({ ...params, bearer, ip }, body),
);

// OPTIONS /api/apps/{appId}/data/{entity} - the CORS preflight of the app's frame
export const OPTIONS = route(
  { auth: "appToken", params: DataParams, summary: "CORS preflight of a space app's frame" },
  async ({ req }) => runtimePreflight(req, ["GET", "POST"]),
);
