import { route } from "@/lib/api/route";
import { generateCsvMapping } from "@/lib/csv/generate-mapping";
import { GenerateMappingAnswer, GenerateMappingBody } from "@/lib/csv/schemas";

// POST /api/csv/generateMapping - the model's mapping of a CSV file's columns to an entity's
// fields; the basic name match (with `fallback`) when the model gives none
export const POST = route(
  {
    auth: "builder",
    body: GenerateMappingBody,
    cap: "aiPrompt",
    summary: "The mapping of a CSV file's columns to an entity's fields",
    response: GenerateMappingAnswer,
    // 429: the builder's model budget is spent (any other model failure answers the basic mapping)
    errors: [429],
  },
  async ({ session, body, req }) => generateCsvMapping(session, body, req.signal),
);
