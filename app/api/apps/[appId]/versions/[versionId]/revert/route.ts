import { route } from "@/lib/api/route";
import { revertToVersion } from "@/lib/space/restore";
import { RevertAnswer, RevertBody, VersionParams } from "@/lib/space/schemas";

// POST /api/apps/{appId}/versions/{versionId}/revert - back to a message's version, removing the later messages once confirmed
export const POST = route(
  {
    auth: "builder",
    params: VersionParams,
    body: RevertBody,
    app: "edit",
    summary:
      "Revert to a message's version: the later messages leave the conversation (409 CONFIRM_REQUIRED with their count until confirm is true); every version stays",
    response: RevertAnswer,
    // 409: CONFIRM_REQUIRED (with removeCount) until confirm is true, or an answer is streaming.
    errors: [409],
  },
  ({ app, params, body }) => revertToVersion(app, params.versionId, body),
);
