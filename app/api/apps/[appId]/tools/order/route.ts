import { route } from "@/lib/api/route";
import { AppIdParams, ReorderToolsBody, ToolListAnswer } from "@/lib/apps/schemas";
import { reorderTools } from "@/lib/apps/tools";

// PUT /api/apps/{appId}/tools/order - put the app's tools in the given order
export const PUT = route(
  {
    auth: "builder",
    params: AppIdParams,
    app: "edit",
    body: ReorderToolsBody,
    summary: "Reorder tools",
    response: ToolListAnswer,
  },
  ({ app, body }) => reorderTools(app, body.toolIds),
);
