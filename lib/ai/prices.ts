// What a run costs: USD per million input (prompt) and output (completion) tokens, OpenAI's list
// prices of the models the dropdown offers by default. A model not listed here has no known price:
// its runs are recorded with cost 0 and cost_known false, so analytics say "unknown", not "free".
// Self-hosted and router models (Ollama, vLLM, OpenRouter's own ids) are priced by their operator,
// which this table cannot know.

export type ModelPrice = { inputPerMillion: number; outputPerMillion: number };

const PRICES: Record<string, ModelPrice> = {
  "gpt-4o-mini": { inputPerMillion: 0.15, outputPerMillion: 0.6 },
  "gpt-4o": { inputPerMillion: 2.5, outputPerMillion: 10 },
  "gpt-4.1-nano": { inputPerMillion: 0.1, outputPerMillion: 0.4 },
  "gpt-4.1-mini": { inputPerMillion: 0.4, outputPerMillion: 1.6 },
  "gpt-4.1": { inputPerMillion: 2, outputPerMillion: 8 },
  "o4-mini": { inputPerMillion: 1.1, outputPerMillion: 4.4 },
  "o3-mini": { inputPerMillion: 1.1, outputPerMillion: 4.4 },
  "gpt-3.5-turbo": { inputPerMillion: 0.5, outputPerMillion: 1.5 },
};

// Longest first, so "gpt-4o-mini-2024-07-18" is gpt-4o-mini and not gpt-4o.
const KEYS = Object.keys(PRICES).sort((a, b) => b.length - a.length);

/**
 * The price of a model id: after any "provider/" prefix (openai/gpt-4o-mini), the longest listed
 * id it starts with (dated snapshots: gpt-4o-mini-2024-07-18). Null when unknown.
 */
export function modelPrice(modelId: string): ModelPrice | null {
  const id = modelId.trim().toLowerCase();
  const bare = id.slice(id.lastIndexOf("/") + 1);
  const key = KEYS.find((k) => bare === k || bare.startsWith(`${k}-`));
  return key ? PRICES[key]! : null;
}

/** The cost of a run in USD (6 decimals), and whether the model's price is known. */
export function runCost(
  modelId: string,
  usage: { promptTokens: number | null; completionTokens: number | null },
): { costUsd: number; costKnown: boolean } {
  const price = modelPrice(modelId);
  if (!price) return { costUsd: 0, costKnown: false };
  const usd =
    ((usage.promptTokens ?? 0) * price.inputPerMillion +
      (usage.completionTokens ?? 0) * price.outputPerMillion) /
    1_000_000;
  return { costUsd: Math.round(usd * 1e6) / 1e6, costKnown: true };
}
