import { listModels } from "@/lib/ai/models";
import { ModelListAnswer } from "@/lib/ai/schemas";
import { route } from "@/lib/api/route";

// GET /api/models - the model dropdown: the provider's list (cached), or the built-in one
export const GET = route(
  { auth: "builder", summary: "Models to choose from, default first", response: ModelListAnswer },
  async () => listModels(),
);
