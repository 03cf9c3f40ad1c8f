import { route } from "@/lib/api/route";
import { ingestText } from "@/lib/context/items";
import { ContextItemIdAnswer, IngestQuery, IngestTextBody } from "@/lib/context/schemas";

// POST /api/context/ingest/text?appId={appId}[&replacing={itemId}] - add a text data source;
// ingested by a worker
export const POST = route(
  {
    auth: "builder",
    query: IngestQuery,
    body: IngestTextBody,
    app: "edit",
    appNotFound: "contextSaveAppFirst",
    summary: "Add a text data source",
    response: ContextItemIdAnswer,
  },
  ({ app, body, query }) => ingestText(app, body.context, { replacing: query.replacing }),
);
