import { route } from "@/lib/api/route";
import { EntityRecordParams, RecordDeletedAnswer, removeRecord } from "@/lib/space/entity-records";

// DELETE /api/apps/{appId}/entities/{entity}/records/{recordId} - deletes one record of the entity
export const DELETE = route(
  {
    auth: "builder",
    params: EntityRecordParams,
    app: "edit",
    summary: "Deletes one record of a space app's entity",
    response: RecordDeletedAnswer,
  },
  ({ app, params }) => removeRecord(app, params.entity, params.recordId),
);
