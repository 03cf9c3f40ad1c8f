import { route } from "@/lib/api/route";
import { CONTEXT_FILE_MEDIA_TYPES } from "@/lib/context/file-type";
import { ingestFile } from "@/lib/context/files";
import { ContextItemIdAnswer, IngestFileQuery } from "@/lib/context/schemas";

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
    upload: CONTEXT_FILE_MEDIA_TYPES,
    response: ContextItemIdAnswer,
    // 403 PLAN_LIMIT: the plan's data sources are all used; 413: over the plan's upload size (read
    // by the service); 404 also when `replacing` is not one of the app's data sources
    errors: [413],
  },
  ({ app, query, req }) => ingestFile(app, query.name, req, { replacing: query.replacing }),
);
