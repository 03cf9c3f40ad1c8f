import { route } from "@/lib/api/route";
import { listConnectorFiles } from "@/lib/integrations/connect";
import { ConnectorFilesAnswer, ConnectorFilesQuery, ProviderParams } from "@/lib/integrations/schemas";

// GET /api/integrations/{provider}/files?appId={appId}&q= - the files the app owner's connection can read
export const GET = route(
  {
    auth: "builder",
    params: ProviderParams,
    query: ConnectorFilesQuery,
    app: "edit",
    summary: "List the Notion pages and databases, or Google Drive files, of the app owner's connection",
    response: ConnectorFilesAnswer,
    // 400 also when the owner is not (or no longer) connected; 502: the provider failed
    errors: [502],
  },
  ({ app, params, query }) => listConnectorFiles(app, params.provider, query.q),
);
