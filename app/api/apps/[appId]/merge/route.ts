import { route } from "@/lib/api/route";
import { AppIdParams } from "@/lib/apps/schemas";
import { mergeAndDeploy } from "@/lib/functions/merge-and-deploy";
import { MergeAnswer } from "@/lib/functions/schemas";
import { MergeBody } from "@/lib/space/schemas";

// POST /api/apps/{appId}/merge - the chosen added or modified files as one new version; their functions deployed
export const POST = route(
  {
    auth: "builder",
    params: AppIdParams,
    body: MergeBody,
    cap: "spaceMerge",
    app: "edit",
    summary:
      "Merges chosen files (added or modified) into a space app's current files as one version, and deploys the functions among them",
    response: MergeAnswer,
    // 409: an answer of the chat is streaming.
    errors: [409],
  },
  ({ session, app, body }) =>
    mergeAndDeploy(app, body, { accountId: session.account!.accountId, userId: session.userId }),
);
