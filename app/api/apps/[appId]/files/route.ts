import { route } from "@/lib/api/route";
import { AppIdParams } from "@/lib/apps/schemas";
import { listCodeFiles } from "@/lib/space/code-files";
import { CodeFilesAnswer } from "@/lib/space/code-schemas";

// GET /api/apps/{appId}/files - the Code panel: the app's current files with their revisions
export const GET = route(
  {
    auth: "builder",
    params: AppIdParams,
    app: "edit",
    summary:
      "The current files of a space app, each with its revision (the content's SHA-256), and whether the caller may edit them (admins)",
    response: CodeFilesAnswer,
  },
  ({ app, session }) => listCodeFiles(app, session),
);
