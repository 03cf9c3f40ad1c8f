import { route } from "@/lib/api/route";
import { CSV_IMPORT_PARTS, CsvImportStartedAnswer, importCsvUpload } from "@/lib/app-data/csv-import";
import { queueCsvImport } from "@/lib/queue/enqueue-csv-import";
import { EntityParams } from "@/lib/space/entity-records";

// POST /api/apps/{appId}/entities/{entity}/imports - import a CSV file into an entity as a job;
// the body is a form of the column mapping (JSON) and the file; answers importId
export const POST = route(
  {
    auth: "builder",
    params: EntityParams,
    app: "edit",
    cap: "csvImport",
    summary:
      "Imports a CSV file into a space app's entity by a column mapping (a multipart form of `mapping` and `file`), as a job; answers importId",
    upload: ["multipart/form-data"],
    parts: CSV_IMPORT_PARTS,
    response: CsvImportStartedAnswer,
    // 413: the file part over the import's size cap (read by the service)
    errors: [413],
  },
  ({ app, session, params, req }) => importCsvUpload(app, session.userId, params.entity, req, queueCsvImport),
);
