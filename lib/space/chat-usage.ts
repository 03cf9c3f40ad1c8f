import type { LanguageModelUsage } from "ai";
import { modelPrice } from "@/lib/ai/prices";
import type { ChatUsage } from "./chat-schemas";

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

/**
 * An answer's usage record. Costs from lib/ai/prices.ts; the price table has no cache rates,
 * so every prompt token is priced at the input rate (cache costs 0) and an unknown model costs 0
 * with costKnown false.
 */
export function usageRecord(
  modelId: string,
  u: LanguageModelUsage | undefined,
  finishReason: string | null,
): ChatUsage {
  const price = modelPrice(modelId);
  const promptTokens = u?.inputTokens ?? null;
  const completionTokens = u?.outputTokens ?? null;
  const promptCost = price ? round6(((promptTokens ?? 0) * price.inputPerMillion) / 1e6) : 0;
  const completionCost = price ? round6(((completionTokens ?? 0) * price.outputPerMillion) / 1e6) : 0;
  return {
    promptTokens,
    promptCost,
    completionTokens,
    completionCost,
    totalTokens:
      u?.totalTokens ??
      (promptTokens !== null || completionTokens !== null
        ? (promptTokens ?? 0) + (completionTokens ?? 0)
        : null),
    totalCost: round6(promptCost + completionCost),
    cacheReadTokens: u?.inputTokenDetails?.cacheReadTokens ?? null,
    cacheWriteTokens: u?.inputTokenDetails?.cacheWriteTokens ?? null,
    cacheReadCost: 0,
    cacheWriteCost: 0,
    rates: price
      ? { promptPerMillion: price.inputPerMillion, completionPerMillion: price.outputPerMillion }
      : null,
    modelInfo: { model: modelId },
    finishReason,
    timestamp: new Date().toISOString(),
    costKnown: price !== null,
  };
}
