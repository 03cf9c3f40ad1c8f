import { route } from "@/lib/api/route";
import { EntityParams, exportRecordsCsv } from "@/lib/space/entity-records";

// GET /api/apps/{appId}/entities/{entity}/export - the entity's records as {entity}_export_{date}.csv
export const GET = route(
  {
    auth: "builder",
    params: EntityParams,
    app: "edit",
    summary: "A space app entity's records as CSV ({entity}_export_{date}.csv, last column 'Entity ID')",
    stream: {
      contentType: "text/csv",
      description:
        "The records, newest first, as a CSV attachment (UTF-8): a column per top-level field of the entity's schema, then any other key the records hold, last 'Entity ID'. Objects and lists are written as JSON; cells a spreadsheet would run as a formula are escaped.",
    },
  },
  ({ app, params }) => exportRecordsCsv(app, params.entity),
);
