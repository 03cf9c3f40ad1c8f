import { route } from "@/lib/api/route";
import { PreviewAnswer, PreviewParams } from "@/lib/space/preview/schemas";
import { openVersionPreview } from "@/lib/space/preview/service";

// GET /api/apps/{appId}/versions/{versionId}/preview - builds a version (or `current`) and answers a short-lived link to its sandboxed preview
export const GET = route(
  {
    auth: "builder",
    params: PreviewParams,
    app: "edit",
    summary:
      "Builds a version's preview (versionId or `current`) and answers a short-lived signed link to it",
    response: PreviewAnswer,
  },
  ({ app, params }) => openVersionPreview(app, params.versionId),
);
