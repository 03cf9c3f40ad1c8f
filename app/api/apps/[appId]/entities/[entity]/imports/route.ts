import { route } from "@/lib/api/route";
import { CsvImportQuery, CsvImportStartedAnswer, importCsvUpload } from "@/lib/app-data/csv-import";
import { queueCsvImport } from "@/lib/queue/enqueue-csv-import";
import { EntityParams } from "@/lib/space/entity-records";

// POST /api/apps/{appId}/entities/{entity}/imports?mapping={JSON column mapping} - import a CSV file
// (the body, text/csv) into an entity as a job; answers importId
export const POST = route(
  {
    auth: "builder",
    params: EntityParams,
    query: CsvImportQuery,
    app: "edit",
    summary:
      "Imports a CSV file (raw bytes) into a space app's entity by a column mapping (JSON in the query), as a job; answers importId",
    upload: ["text/csv"],
    response: CsvImportStartedAnswer,
    // 413: over the import's size cap (read by the service)
    errors: [413],
  },
  ({ app, session, params, query, req }) =>
    importCsvUpload(app, session.userId, params.entity, req, query.mapping, queueCsvImport),
);
