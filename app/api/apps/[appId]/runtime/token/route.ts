import { route } from "@/lib/api/route";
import { issueRuntimeToken } from "@/lib/app-data/runtime-token";
import { RuntimeParams, RuntimeTokenAnswer } from "@/lib/app-data/schemas";

// POST /api/apps/{appId}/runtime/token - the app token a space app's frame sends, for the page's signed-in user
export const POST = route(
  {
    auth: "public",
    params: RuntimeParams,
    summary:
      "The token a space app's own code sends to its data API: for the app's builder or one of its end users, none for anybody else",
    response: RuntimeTokenAnswer,
    // No such space app, or a draft asked for by anybody but its builder.
    errors: [404],
  },
  ({ session, params }) => issueRuntimeToken(params.appId, session),
);
