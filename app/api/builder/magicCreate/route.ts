import { route } from "@/lib/api/route";
import { magicCreateField } from "@/lib/builder/magic-create";
import { MagicCreateBody } from "@/lib/builder/schemas";

// POST /api/builder/magicCreate - the model designs a field from the name the builder typed
export const POST = route(
  { auth: "builder", body: MagicCreateBody, cap: "aiPrompt", summary: "A field designed by the model" },
  async ({ session, body, req }) => magicCreateField(session, body, req.signal),
);
