// Magic create, the model provider and the builder's model budget. Part of the catalogue in lib/messages/index.ts.
export const aiMessages = {
  // Shared helpers (the spec's wording)
  llmOutputNotJson: "LLM output is not a valid JSON",

  // Magic field creation (the spec's wording, word for word)
  magicEditNoName: "Magic edit failed, try again using a different field name",
  magicEditFailed: "Magic edit failed",
  magicCreateFieldFailed: "Failed creating the field",
  // The model provider (our own wording)
  aiNotConfigured: "No model is configured: set AI_BASE_URL (and AI_API_KEY), or OPENAI_API_KEY",
  // A builder's model budget (lib/ai/model-budget.ts; our wording)
  modelCallsPerMinuteReached:
    "You've reached your plan's limit of {n} AI requests a minute. Try again in a minute.",
  modelCallsPerDayReached: "You've reached your plan's limit of {n} AI requests a day. Try again later.",
  // Prompt size caps (zod issues of the fields)
  magicInputTooLong: "The field name can be at most {max} characters",
  magicPromptTooLong: "Magic create reads at most {max} characters of the instructions",
  chatMessageTooLong: "A message can be at most {max} characters",
  runInputTooLong: "Each input can be at most {max} characters",
} as const;
