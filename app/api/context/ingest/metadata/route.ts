import { route } from "@/lib/api/route";
import { ingestMetadata } from "@/lib/integrations/ingest";
import { IngestMetadataBody, IngestMetadataQuery } from "@/lib/integrations/schemas";

// POST /api/context/ingest/metadata?appId={appId}[&replacing={itemId}] - add websites, Notion and Google Drive files; ingested by a worker
export const POST = route(
  {
    auth: "builder",
    query: IngestMetadataQuery,
    body: IngestMetadataBody,
    app: "edit",
    appNotFound: "contextSaveAppFirst",
    summary: "Add websites, Notion pages and databases, and Google Drive files as data sources",
  },
  ({ app, owner, body, query }) =>
    ingestMetadata(app, owner, body.contextItems, { replacing: query.replacing }),
);
