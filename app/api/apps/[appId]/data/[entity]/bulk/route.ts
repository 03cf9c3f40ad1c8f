import { runtimePreflight } from "@/lib/api/cors";
import { route } from "@/lib/api/route";
import { bulkCreateRecords } from "@/lib/app-data/records";
import { BulkCreateBody, DataParams, RecordsAnswer } from "@/lib/app-data/schemas";

// POST /api/apps/{appId}/data/{entity}/bulk - creates several records, all or none
export const POST = route(
  {
    auth: "appToken",
    params: DataParams,
    body: BulkCreateBody,
    summary: "Creates several records of the entity at once, all or none (a space app's data client)",
    response: RecordsAnswer,
    errors: [413, 429],
  },
  ({ params, body, bearer, ip }) => bulkCreateRecords({ ...params, bearer, ip }, body.records),
);

// OPTIONS /api/apps/{appId}/data/{entity}/bulk - the CORS preflight of the app's frame
export const OPTIONS = route(
  { auth: "appToken", params: DataParams, summary: "CORS preflight of a space app's frame" },
  async ({ req }) => runtimePreflight(req, ["POST"]),
);
