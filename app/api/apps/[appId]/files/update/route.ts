import { route } from "@/lib/api/route";
import { AppIdParams } from "@/lib/apps/schemas";
import { updateCodeFile } from "@/lib/space/code-files";
import { UpdateFileAnswer, UpdateFileBody } from "@/lib/space/code-schemas";

// POST /api/apps/{appId}/files/update - the code editor's save (admins): a version of kind "edit"
export const POST = route(
  {
    auth: "builder",
    params: AppIdParams,
    body: UpdateFileBody,
    cap: "codeFile",
    app: "edit",
    summary:
      "Saves one file of a space app as a new version (admins; read-only files refused); 409 with the current content when the file changed since the revision named",
    response: UpdateFileAnswer,
    errors: [404, 409],
  },
  ({ app, session, body }) => updateCodeFile(app, session, body),
);
