import { route } from "@/lib/api/route";
import { AppIdParams } from "@/lib/apps/schemas";
import { deployAllFunctions } from "@/lib/functions/deploy";
import { FunctionsDeployAnswer } from "@/lib/functions/schemas";

// POST /api/apps/{appId}/functions/deploy - deploys every function file; the summary and each result
export const POST = route(
  {
    auth: "builder",
    params: AppIdParams,
    app: "edit",
    summary: "Deploys every function of a space app: a summary message and each function's result",
    response: FunctionsDeployAnswer,
  },
  ({ app, session }) => deployAllFunctions(app, session.userId),
);
