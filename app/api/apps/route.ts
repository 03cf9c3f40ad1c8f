import { route } from "@/lib/api/route";
import { createApp, listApps } from "@/lib/apps/create-app";
import { AppListAnswer, CreateAppBody, CreatedAppAnswer } from "@/lib/apps/schemas";

// GET /api/apps - the builder's apps, last edited first
export const GET = route(
  { auth: "builder", summary: "List your apps", response: AppListAnswer },
  ({ session }) => listApps(session),
);

// POST /api/apps - create an app; idempotent on the client-made appId
export const POST = route(
  {
    auth: "builder",
    body: CreateAppBody,
    cap: "appContent",
    summary: "Create an app",
    response: CreatedAppAnswer,
    errors: [409],
  },
  ({ session, body }) => createApp(session, body),
);
