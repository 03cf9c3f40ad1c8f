import { route } from "@/lib/api/route";
import { AppAnswer, AppIdParams, PublishBody } from "@/lib/apps/schemas";
import { setPublishedAndBuild } from "@/lib/space/publish";

// POST /api/apps/{appId}/status - publish (active) or unpublish (draft)
export const POST = route(
  {
    auth: "builder",
    params: AppIdParams,
    app: "edit",
    body: PublishBody,
    summary: "Publish or unpublish an app",
    response: AppAnswer,
  },
  ({ app, body }) => setPublishedAndBuild(app, body.status),
);
