import { route } from "@/lib/api/route";
import { ingestText } from "@/lib/context/items";
import { ContextAppQuery, IngestTextBody } from "@/lib/context/schemas";

// POST /api/context/ingest/text?appId={appId} - add a text data source; ingested by a worker
export const POST = route(
  {
    auth: "builder",
    query: ContextAppQuery,
    body: IngestTextBody,
    app: "edit",
    summary: "Add a text data source",
  },
  ({ app, body }) => ingestText(app, body.context),
);
