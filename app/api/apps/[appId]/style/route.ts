import { route } from "@/lib/api/route";
import { saveStyle } from "@/lib/apps/save-style-settings";
import { AppIdParams, SaveStyleBody, StyleAnswer } from "@/lib/apps/schemas";

// POST /api/apps/{appId}/style - save the app style (its own record and revision)
export const POST = route(
  {
    auth: "builder",
    params: AppIdParams,
    app: "edit",
    body: SaveStyleBody,
    summary: "Save the app style",
    response: StyleAnswer,
    errors: [409],
  },
  ({ session, app, body }) => saveStyle(session, app, body),
);
