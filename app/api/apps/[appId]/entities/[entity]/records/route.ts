import { route } from "@/lib/api/route";
import {
  EntityParams,
  EntityRecordPageAnswer,
  EntityRecordsQuery,
  listRecords,
} from "@/lib/space/entity-records";

// GET /api/apps/{appId}/entities/{entity}/records?limit=&cursor= - a page of an entity's records, newest first
export const GET = route(
  {
    auth: "builder",
    params: EntityParams,
    query: EntityRecordsQuery,
    app: "edit",
    summary:
      "A page of a space app entity's records, newest first, with their count and the next page's cursor",
    response: EntityRecordPageAnswer,
  },
  ({ app, params, query }) => listRecords(app, params.entity, query),
);
