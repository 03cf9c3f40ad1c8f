import { route } from "@/lib/api/route";
import { AppIdParams } from "@/lib/apps/schemas";
import { listFunctions } from "@/lib/functions/deploy";
import { FunctionListAnswer } from "@/lib/functions/schemas";

// GET /api/apps/{appId}/functions - the space app's function files with their deploy state
export const GET = route(
  {
    auth: "builder",
    params: AppIdParams,
    app: "edit",
    summary:
      "A space app's functions (functions/<name>.ts|js of its current files), each with its deploy state, last deploy and, when the app is published, its public URL",
    response: FunctionListAnswer,
  },
  ({ app }) => listFunctions(app),
);
