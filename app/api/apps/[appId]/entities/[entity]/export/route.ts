import { route } from "@/lib/api/route";
import { EntityParams, exportRecordsCsv } from "@/lib/space/entity-records";

// GET /api/apps/{appId}/entities/{entity}/export - the entity's records as {entity}_export_{date}.csv
export const GET = route(
  {
    auth: "builder",
    params: EntityParams,
    app: "edit",
    summary: "A space app entity's records as CSV ({entity}_export_{date}.csv, last column 'Entity ID')",
  },
  ({ app, params }) => exportRecordsCsv(app, params.entity),
);
