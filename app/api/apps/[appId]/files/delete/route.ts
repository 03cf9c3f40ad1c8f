import { route } from "@/lib/api/route";
import { AppIdParams } from "@/lib/apps/schemas";
import { deleteCodeFile } from "@/lib/space/code-files";
import { DeleteFileAnswer, DeleteFileBody } from "@/lib/space/code-schemas";

// POST /api/apps/{appId}/files/delete - the code editor's delete (admins), with the files that imported it
export const POST = route(
  {
    auth: "builder",
    params: AppIdParams,
    body: DeleteFileBody,
    cap: "codeDelete",
    app: "edit",
    summary:
      "Deletes one file of a space app and updates the files that imported it, as one new version (admins; read-only files refused)",
    response: DeleteFileAnswer,
    errors: [404, 409],
  },
  ({ app, session, body }) => deleteCodeFile(app, session, body),
);
