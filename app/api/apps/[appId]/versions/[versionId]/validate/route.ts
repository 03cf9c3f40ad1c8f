import { route } from "@/lib/api/route";
import { VersionParams } from "@/lib/space/schemas";
import { ValidateBody, ValidationAnswer } from "@/lib/space/validate-schemas";
import { validateVersion } from "@/lib/validation/service";

// POST /api/apps/{appId}/versions/{versionId}/validate - the issues of a version: build, lint (hooks, undefined names), entity schemas, and the runtime errors the preview reported
export const POST = route(
  {
    auth: "builder",
    params: VersionParams,
    body: ValidateBody,
    app: "edit",
    summary:
      "Validate a version: its build errors, React hooks misuse, undefined names, invalid entity schemas and the runtime errors its preview reported, each with file and line",
    response: ValidationAnswer,
    // 504: the checks went past their time limit (the worker was ended).
    errors: [504],
  },
  ({ app, params, body }) => validateVersion(app, params.versionId, body),
);
