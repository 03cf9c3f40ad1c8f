import { OkAnswer } from "@/lib/api/answers";
import { route } from "@/lib/api/route";
import { SaveToolBody, ToolAnswer, ToolParams } from "@/lib/apps/schemas";
import { deleteTool, saveTool } from "@/lib/apps/tools";

const tool = { auth: "builder", params: ToolParams, app: "edit" } as const;

// PATCH /api/apps/{appId}/tools/{toolId} - save a tool at a revision (409 with the current tool when it moved on)
export const PATCH = route(
  {
    ...tool,
    body: SaveToolBody,
    cap: "appContent",
    summary: "Save a tool",
    response: ToolAnswer,
    errors: [409],
  },
  ({ session, app, params, body }) => saveTool(session, app, params.toolId, body),
);

// DELETE /api/apps/{appId}/tools/{toolId}
export const DELETE = route({ ...tool, summary: "Delete a tool", response: OkAnswer }, ({ app, params }) =>
  deleteTool(app, params.toolId),
);
