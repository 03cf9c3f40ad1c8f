import { OkAnswer } from "@/lib/api/answers";
import { route } from "@/lib/api/route";
import { disconnectConnector } from "@/lib/integrations/connect";
import { ProviderParams } from "@/lib/integrations/schemas";

// DELETE /api/integrations/{provider} - disconnect the caller's Notion or Google Drive
export const DELETE = route(
  {
    auth: "builder",
    params: ProviderParams,
    summary: "Disconnect the caller's Notion or Google Drive",
    response: OkAnswer,
  },
  ({ session, params }) => disconnectConnector(session, params.provider),
);
