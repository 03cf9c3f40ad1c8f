import { route } from "@/lib/api/route";
import { saveSettings } from "@/lib/apps/save-style-settings";
import { AppIdParams, SaveSettingsBody, SettingsAnswer } from "@/lib/apps/schemas";

// POST /api/apps/{appId}/settings - save the app settings (its own record and revision)
export const POST = route(
  {
    auth: "builder",
    params: AppIdParams,
    app: "edit",
    body: SaveSettingsBody,
    summary: "Save the app settings",
    response: SettingsAnswer,
    errors: [409],
  },
  ({ session, app, body }) => saveSettings(session, app, body),
);
