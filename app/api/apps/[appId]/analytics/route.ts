import { getAppAnalytics } from "@/lib/analytics/analytics";
import { AnalyticsQuery, AppAnalyticsAnswer } from "@/lib/analytics/schemas";
import { route } from "@/lib/api/route";
import { AppIdParams } from "@/lib/apps/schemas";

// GET /api/apps/{appId}/analytics?from=&to= - runs, users, sign-ups, tokens and cost per UTC day
export const GET = route(
  {
    auth: "builder",
    params: AppIdParams,
    query: AnalyticsQuery,
    app: "edit",
    summary:
      "The analytics of a published app over a range of UTC days (from and to included, 'YYYY-MM-DD'; default the last 30 days): totals, one row per day, statuses, top tools and the first page of recent runs",
    response: AppAnalyticsAnswer,
  },
  ({ app, query }) => getAppAnalytics(app, query),
);
