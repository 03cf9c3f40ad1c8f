import { route } from "@/lib/api/route";
import { listConnectorFiles } from "@/lib/integrations/connect";
import { ConnectorFilesQuery, ProviderParams } from "@/lib/integrations/schemas";

// GET /api/integrations/{provider}/files?appId={appId}&q= - the files the app owner's connection can read
export const GET = route(
  {
    auth: "builder",
    params: ProviderParams,
    query: ConnectorFilesQuery,
    app: "edit",
    summary: "List the Notion pages and databases, or Google Drive files, of the app owner's connection",
  },
  ({ app, params, query }) => listConnectorFiles(app, params.provider, query.q),
);
