import { listRecentRuns } from "@/lib/analytics/analytics";
import { AnalyticsRunsAnswer, AnalyticsRunsQuery } from "@/lib/analytics/schemas";
import { route } from "@/lib/api/route";
import { AppIdParams } from "@/lib/apps/schemas";

// GET /api/apps/{appId}/analytics/runs?from=&to=&cursor= - the next page of the range's runs
export const GET = route(
  {
    auth: "builder",
    params: AppIdParams,
    query: AnalyticsRunsQuery,
    app: "edit",
    summary:
      "The runs of a published app in a range of UTC days, newest first, with their inputs and outputs; cursor: the previous page's nextCursor",
    response: AnalyticsRunsAnswer,
  },
  ({ app, query }) => listRecentRuns(app, query),
);
