import { route } from "@/lib/api/route";
import { AppIdParams } from "@/lib/apps/schemas";
import { listFileHistory } from "@/lib/space/file-history";
import { FileHistoryAnswer, FileHistoryQuery } from "@/lib/space/file-history-schemas";

// GET /api/apps/{appId}/files/history?path=&before=&limit=50 - the versions that changed one file, newest first
export const GET = route(
  {
    auth: "builder",
    params: AppIdParams,
    query: FileHistoryQuery,
    app: "edit",
    summary:
      "The versions of a space app that added, modified or deleted one file, newest first, a page before a version number",
    response: FileHistoryAnswer,
  },
  ({ app, query }) => listFileHistory(app, query),
);
