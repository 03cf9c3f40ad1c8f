import { OkAnswer } from "@/lib/api/answers";
import { route } from "@/lib/api/route";
import { deleteApp } from "@/lib/apps/delete-app";
import { loadEditorApp } from "@/lib/apps/editor-app";
import { saveApp } from "@/lib/apps/save-app";
import { AppAnswer, AppIdParams, EditorAppAnswer, SaveAppBody } from "@/lib/apps/schemas";

const app = { auth: "builder", params: AppIdParams, app: "edit" } as const;

// GET /api/apps/{appId} - the app with its style, settings and tools, as the editor shows it
export const GET = route(
  { ...app, summary: "Get an app for editing", response: EditorAppAnswer },
  ({ app }) => loadEditorApp(app),
);

// PATCH /api/apps/{appId} - save changed fields at a revision (409 with the current app when it moved on)
export const PATCH = route(
  {
    ...app,
    body: SaveAppBody,
    cap: "appContent",
    summary: "Save app fields",
    response: AppAnswer,
    errors: [409],
  },
  ({ session, app, body }) => saveApp(session, app, body),
);

// DELETE /api/apps/{appId} - delete the app, its tools, settings, style and uploads
export const DELETE = route({ ...app, summary: "Delete an app", response: OkAnswer }, ({ app }) =>
  deleteApp(app),
);
