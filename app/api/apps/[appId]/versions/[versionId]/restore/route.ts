import { route } from "@/lib/api/route";
import { restoreVersion } from "@/lib/space/restore";
import { RestoreBody, VersionParams } from "@/lib/space/schemas";

// POST /api/apps/{appId}/versions/{versionId}/restore - a restore message and a new version with that version's files
export const POST = route(
  {
    auth: "builder",
    params: VersionParams,
    body: RestoreBody,
    app: "edit",
    summary: "Restore a version: a restore message and a new version equal to it (undoable)",
  },
  ({ session, app, params, body }) => restoreVersion(app, session.account!.accountId, params.versionId, body),
);
