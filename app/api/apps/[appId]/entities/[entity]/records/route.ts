import { route } from "@/lib/api/route";
import { createPanelRecord } from "@/lib/app-data/panel-records";
import { RecordFields } from "@/lib/app-data/schemas";
import {
  EntityParams,
  EntityRecordAnswer,
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

// POST /api/apps/{appId}/entities/{entity}/records - the Database panel adds a row
export const POST = route(
  {
    auth: "builder",
    params: EntityParams,
    body: RecordFields,
    app: "edit",
    summary: "Adds a record to a space app's entity, checked against its schema; the builder is its creator",
    response: EntityRecordAnswer,
    errors: [413],
  },
  ({ app, session, params, body }) => createPanelRecord(app, session.userId, params.entity, body),
);
