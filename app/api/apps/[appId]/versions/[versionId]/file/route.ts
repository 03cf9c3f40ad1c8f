import { route } from "@/lib/api/route";
import { getFileAtVersion } from "@/lib/space/file-history";
import { FileAtVersionAnswer, VersionFileQuery } from "@/lib/space/file-history-schemas";
import { VersionParams } from "@/lib/space/schemas";

// GET /api/apps/{appId}/versions/{versionId}/file?path=&against=parent|current - one file as a version had it, and as the version before (or the current files) had it
export const GET = route(
  {
    auth: "builder",
    params: VersionParams,
    query: VersionFileQuery,
    app: "edit",
    summary:
      "One file of a version (null when the version deleted it) and the same file in the version before, or in the current files (against=current)",
    response: FileAtVersionAnswer,
  },
  ({ app, params, query }) => getFileAtVersion(app, params.versionId, query.path, query.against),
);
