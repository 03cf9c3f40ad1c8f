import { route } from "@/lib/api/route";
import { deployFunction } from "@/lib/functions/deploy";
import { FunctionDeployAnswer, FunctionParams } from "@/lib/functions/schemas";

// POST /api/apps/{appId}/functions/{name}/deploy - deploys functions/<name>.ts|js of the current files.
// 400 missing_secrets (with missingSecrets) or function/deploy-failed (with reason); 404 no such file.
export const POST = route(
  {
    auth: "builder",
    params: FunctionParams,
    app: "edit",
    summary: "Deploys one function of a space app from its current files; answers its URL and state",
    response: FunctionDeployAnswer,
  },
  ({ app, params, session }) => deployFunction(app, params.name, session.userId),
);
