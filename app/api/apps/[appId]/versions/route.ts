import { route } from "@/lib/api/route";
import { AppIdParams } from "@/lib/apps/schemas";
import { VersionListAnswer, VersionsQuery } from "@/lib/space/schemas";
import { listAppVersions } from "@/lib/space/versions";

// GET /api/apps/{appId}/versions?limit= - the latest versions (10) plus the current one, with the count in between
export const GET = route(
  {
    auth: "builder",
    params: AppIdParams,
    query: VersionsQuery,
    app: "edit",
    summary: "The latest versions of a space app plus the current one, with the count in between",
    response: VersionListAnswer,
  },
  ({ app, query }) => listAppVersions(app, query.limit),
);
