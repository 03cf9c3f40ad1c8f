import { route } from "@/lib/api/route";
import { CsvImportAnswer, CsvImportParams, readCsvImport } from "@/lib/app-data/csv-import";

// GET /api/apps/{appId}/entities/{entity}/imports/{importId} - a CSV import's progress and result
export const GET = route(
  {
    auth: "builder",
    params: CsvImportParams,
    app: "edit",
    summary: "A CSV import's status, counts, failed rows with their reason, and its result's message",
    response: CsvImportAnswer,
  },
  ({ app, params }) => readCsvImport(app, params.entity, params.importId),
);
