import { route } from "@/lib/api/route";
import { ContextItemIdsAnswer } from "@/lib/context/schemas";
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
    response: ContextItemIdsAnswer,
    // 400/403 PLAN_LIMIT: over the plan's connector files or data sources; 404 also when
    // `replacing` is not one of the app's data sources (all statuses the wrapper declares)
  },
  ({ app, body, query }) => ingestMetadata(app, body.contextItems, { replacing: query.replacing }),
);
