import { route } from "@/lib/api/route";
import { VersionDetailAnswer, VersionDetailQuery, VersionParams } from "@/lib/space/schemas";
import { getVersionDetail } from "@/lib/space/versions";

// GET /api/apps/{appId}/versions/{versionId}?files=all|none&against=parent|current&sides=none|first - a version's files (unless none), metadata and changes
export const GET = route(
  {
    auth: "builder",
    params: VersionParams,
    query: VersionDetailQuery,
    app: "edit",
    summary:
      "A version's files (files=none: without them) and metadata, and its changes against its parent or (against=current) the current files; sides=first adds the first changed file's two sides",
    response: VersionDetailAnswer,
  },
  ({ app, params, query }) => getVersionDetail(app, params.versionId, query),
);
