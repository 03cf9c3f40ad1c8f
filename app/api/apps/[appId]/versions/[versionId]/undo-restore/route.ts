import { route } from "@/lib/api/route";
import { undoRestore } from "@/lib/space/restore";
import { RestoreAnswer, UndoRestoreBody, VersionParams } from "@/lib/space/schemas";

// POST /api/apps/{appId}/versions/{versionId}/undo-restore - an undo_restore message, back to the state before the restore
export const POST = route(
  {
    auth: "builder",
    params: VersionParams,
    body: UndoRestoreBody,
    app: "edit",
    summary: "Undo a restore: an undo_restore message and a new version equal to the state before it",
    response: RestoreAnswer,
    // 409: an answer is streaming, the restore was undone already, or the app changed since it.
    errors: [409],
  },
  ({ session, app, params, body }) => undoRestore(app, session.account!.accountId, params.versionId, body),
);
