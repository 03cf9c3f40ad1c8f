import { route } from "@/lib/api/route";
import { AppIdParams } from "@/lib/apps/schemas";
import { SaveSecretsBody, SecretListAnswer } from "@/lib/secrets/schemas";
import { listSecrets, saveSecrets } from "@/lib/secrets/secrets";

// GET /api/apps/{appId}/secrets - the space app's secrets, their values masked
export const GET = route(
  {
    auth: "builder",
    params: AppIdParams,
    app: "edit",
    summary: "A space app's secrets: keys, instructions and dates; every value is masked",
    response: SecretListAnswer,
  },
  ({ app }) => listSecrets(app),
);

// POST /api/apps/{appId}/secrets - adds or replaces secrets; answers the list, masked
export const POST = route(
  {
    auth: "builder",
    params: AppIdParams,
    body: SaveSecretsBody,
    cap: "secrets",
    app: "edit",
    summary: "Adds secrets to a space app, or replaces the values of keys it has; stored encrypted",
    response: SecretListAnswer,
  },
  ({ app, body }) => saveSecrets(app, body),
);
