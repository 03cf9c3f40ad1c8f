import { route } from "@/lib/api/route";
import { getRunContext } from "@/lib/runs/run-context";
import { RunContextAnswer, RunContextParams } from "@/lib/runs/schemas";

// GET /api/apps/{appId}/runs/{runId}/context - the excerpts (or rows) a run's model was given
export const GET = route(
  {
    auth: "builder",
    params: RunContextParams,
    app: "edit",
    summary:
      "What a run's model was grounded in: the excerpts of the app's data sources (source, position, text as sent; admins also get each excerpt's search score) or the item-list rows selected by smart items filtering; `empty` says why there is none",
    response: RunContextAnswer,
  },
  ({ app, params, session }) => getRunContext(app, params.runId, session),
);
