import { z } from "zod";

// Shapes of the model routes, shared by the route, the model dropdown and the tests.

export const ModelOption = z.object({ id: z.string(), label: z.string() });
export type ModelOption = z.infer<typeof ModelOption>;

/**
 * GET /api/models: the model dropdown's entries. "provider": the configured endpoint's own
 * list; "fallback": the built-in list (the provider's list failed); "not_configured": the
 * built-in list, and no model is configured (the UI names the variable to set).
 */
export const ModelListAnswer = z.object({
  models: z.array(ModelOption),
  source: z.enum(["provider", "fallback", "not_configured"]),
  defaultModel: z.string(),
});
export type ModelListAnswer = z.infer<typeof ModelListAnswer>;

/**
 * What GET {base}/models answers: OpenAI's `{ data: [{ id }] }`; router services add a `name`.
 * Other keys are ignored.
 */
export const ProviderModelList = z.object({
  data: z.array(
    z.object({ id: z.string().min(1).max(200), name: z.string().max(200).optional().catch(undefined) }),
  ),
});
