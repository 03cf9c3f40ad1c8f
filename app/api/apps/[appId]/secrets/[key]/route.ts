import { route } from "@/lib/api/route";
import { SecretDeletedAnswer, SecretParams } from "@/lib/secrets/schemas";
import { deleteSecret } from "@/lib/secrets/secrets";

// DELETE /api/apps/{appId}/secrets/{key} - deletes one secret of the space app
export const DELETE = route(
  {
    auth: "builder",
    params: SecretParams,
    app: "edit",
    summary: "Deletes one secret of a space app",
    response: SecretDeletedAnswer,
  },
  ({ app, params }) => deleteSecret(app, params.key),
);
