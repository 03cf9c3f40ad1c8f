import { route } from "@/lib/api/route";
import { RepairAnswer, RepairBody } from "@/lib/space/repair-schemas";
import { VersionParams } from "@/lib/space/schemas";
import { repairVersion } from "@/lib/validation/repair";

// POST /api/apps/{appId}/versions/{versionId}/repair - the model fixes the files with the validation's issues, validated again each iteration (1-5); nothing is written until the result is merged
export const POST = route(
  {
    auth: "builder",
    params: VersionParams,
    body: RepairBody,
    app: "edit",
    summary:
      "Repair a version: the model fixes the files with the validation's issues, validated again after each iteration (1-5, default 2), until clean; answers the repaired files without writing them",
    response: RepairAnswer,
    // 502: the model failed ('Failed to repair'); 503: no model configured; 504: the validation's time limit.
    errors: [400, 403, 429, 502, 503, 504],
  },
  ({ app, session, params, body }) => repairVersion(app, session, params.versionId, body),
);
