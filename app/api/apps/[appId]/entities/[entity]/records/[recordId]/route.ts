import { route } from "@/lib/api/route";
import { updatePanelCell } from "@/lib/app-data/panel-records";
import { PanelCellBody } from "@/lib/app-data/schemas";
import {
  EntityRecordAnswer,
  EntityRecordParams,
  RecordDeletedAnswer,
  removeRecord,
} from "@/lib/space/entity-records";

// PATCH /api/apps/{appId}/entities/{entity}/records/{recordId} - the Database panel edits one cell
export const PATCH = route(
  {
    auth: "builder",
    params: EntityRecordParams,
    body: PanelCellBody,
    app: "edit",
    summary:
      "Sets one field of a space app entity's record (null clears it), checked against the entity's schema",
    response: EntityRecordAnswer,
    errors: [409, 413],
  },
  ({ app, params, body }) => updatePanelCell(app, params.entity, params.recordId, body),
);

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
