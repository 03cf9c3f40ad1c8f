import { route } from "@/lib/api/route";
import { restoreVersion } from "@/lib/space/restore";
import { RestoreAnswer, RestoreBody, VersionParams } from "@/lib/space/schemas";

// POST /api/apps/{appId}/versions/{versionId}/restore - a restore message and a new version with that version's files
export const POST = route(
  {
    auth: "builder",
    params: VersionParams,
    body: RestoreBody,
    app: "edit",
    summary: "Restore a version: a restore message and a new version equal to it (undoable)",
    response: RestoreAnswer,
    // 409: an answer of the chat is streaming.
    errors: [409],
  },
  ({ session, app, params, body }) => restoreVersion(app, session.account!.accountId, params.versionId, body),
);
