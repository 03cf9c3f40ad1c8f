import { route } from "@/lib/api/route";
import { magicCreateField } from "@/lib/builder/magic-create";
import { MagicCreateAnswer, MagicCreateBody } from "@/lib/builder/schemas";

// POST /api/builder/magicCreate - the model designs a field from the name the builder typed
export const POST = route(
  {
    auth: "builder",
    body: MagicCreateBody,
    cap: "aiPrompt",
    summary: "A field designed by the model",
    response: MagicCreateAnswer,
    // 404: appId/toolId is not the caller's; 409 FIELD_EXISTS: the name is taken; 429: model
    // budget spent; 502: the model failed or made no usable field; 503: no model provider set up
    errors: [404, 409, 429, 502, 503],
  },
  async ({ session, body, req }) => magicCreateField(session, body, req.signal),
);
