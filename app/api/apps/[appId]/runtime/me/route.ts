import { runtimePreflight } from "@/lib/api/cors";
import { route } from "@/lib/api/route";
import { getMe, updateMe } from "@/lib/app-data/me";
import { RecordFields, RuntimeParams, RuntimeUserAnswer } from "@/lib/app-data/schemas";

// GET /api/apps/{appId}/runtime/me - the signed-in user, as the app's code sees them (auth.me())
export const GET = route(
  {
    auth: "appToken",
    params: RuntimeParams,
    summary: "The user a space app's token names, with their role and the User entity's fields",
    response: RuntimeUserAnswer,
  },
  ({ params, bearer }) => getMe(params.appId, bearer),
);

// PATCH /api/apps/{appId}/runtime/me - an end user's own extra fields (the app's User entity)
export const PATCH = route(
  {
    auth: "appToken",
    params: RuntimeParams,
    body: RecordFields,
    summary: "Changes the signed-in end user's own fields that the app's User entity declares",
    response: RuntimeUserAnswer,
    errors: [413],
  },
  ({ params, bearer, body }) => updateMe(params.appId, bearer, body),
);

// OPTIONS /api/apps/{appId}/runtime/me - the CORS preflight of the app's frame
export const OPTIONS = route(
  { auth: "appToken", params: RuntimeParams, summary: "CORS preflight of a space app's frame" },
  async ({ req }) => runtimePreflight(req, ["GET", "PATCH"]),
);
