import { route } from "@/lib/api/route";
import { disconnectConnector } from "@/lib/integrations/connect";
import { ProviderParams } from "@/lib/integrations/schemas";

// DELETE /api/integrations/{provider} - disconnect the caller's Notion or Google Drive
export const DELETE = route(
  { auth: "builder", params: ProviderParams, summary: "Disconnect the caller's Notion or Google Drive" },
  ({ session, params }) => disconnectConnector(session, params.provider),
);
