import { route } from "@/lib/api/route";
import { VersionDetailAnswer, VersionParams } from "@/lib/space/schemas";
import { getVersionDetail } from "@/lib/space/versions";

// GET /api/apps/{appId}/versions/{versionId} - a version's files, metadata and changes
export const GET = route(
  {
    auth: "builder",
    params: VersionParams,
    app: "edit",
    summary: "A version's files and metadata, and what it changed",
    response: VersionDetailAnswer,
  },
  ({ app, params }) => getVersionDetail(app, params.versionId),
);
