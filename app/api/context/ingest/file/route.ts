import { route } from "@/lib/api/route";
import { ingestFile } from "@/lib/context/files";
import { IngestFileQuery } from "@/lib/context/schemas";

// POST /api/context/ingest/file?appId={appId}&name={file name}[&replacing={itemId}] - add a CSV,
// PDF or Word data source; the body is the file's bytes, read by the service under the plan's
// size cap
export const POST = route(
  {
    auth: "builder",
    query: IngestFileQuery,
    app: "edit",
    appNotFound: "contextSaveAppFirst",
    cap: "contextFile",
    summary: "Add a file data source (raw bytes, name in the query); answers contextItemId",
  },
  ({ app, owner, query, req }) => ingestFile(app, owner, query.name, req, { replacing: query.replacing }),
);
