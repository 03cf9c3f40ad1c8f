import { route } from "@/lib/api/route";
import { AppIdParams, CreateToolBody, ToolAnswer } from "@/lib/apps/schemas";
import { createTool } from "@/lib/apps/tools";

// POST /api/apps/{appId}/tools - add a draft tool to a generated app
export const POST = route(
  {
    auth: "builder",
    params: AppIdParams,
    app: "edit",
    body: CreateToolBody,
    summary: "Add a tool",
    response: ToolAnswer,
    errors: [409],
  },
  ({ app, body }) => createTool(app, body),
);
