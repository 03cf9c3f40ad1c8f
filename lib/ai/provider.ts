import "server-only";
import { createOpenAICompatible, type OpenAICompatibleProvider } from "@ai-sdk/openai-compatible";
import { AppError } from "@/lib/api/errors";
import { DEFAULT_MODEL } from "@/lib/constants";
import { env } from "@/lib/env";

// The model provider, from the environment: any OpenAI-compatible endpoint (AI_BASE_URL with
// AI_API_KEY), or OpenAI itself when only OPENAI_API_KEY is set. Every call goes through the AI
// SDK over HTTP, so tests point AI_BASE_URL at a local server speaking the same API.

/** OpenAI's own endpoint, for OPENAI_API_KEY alone. */
const OPENAI_BASE_URL = "https://api.openai.com/v1";

export type ModelEndpoint = { baseURL: string; apiKey: string | undefined };

/** Where model calls go, or null when nothing is configured. */
export function modelEndpoint(): ModelEndpoint | null {
  const e = env();
  const apiKey = e.AI_API_KEY ?? e.OPENAI_API_KEY;
  if (e.AI_BASE_URL) return { baseURL: e.AI_BASE_URL.replace(/\/+$/, ""), apiKey };
  if (e.OPENAI_API_KEY) return { baseURL: OPENAI_BASE_URL, apiKey };
  return null;
}

/** The model used when none is chosen: AI_DEFAULT_MODEL, else the spec's default. */
export const defaultModelId = (): string => env().AI_DEFAULT_MODEL ?? DEFAULT_MODEL;

/** @throws AppError NOT_CONFIGURED (503), naming the variables to set */
export function requireModelEndpoint(): ModelEndpoint {
  const endpoint = modelEndpoint();
  if (!endpoint) throw new AppError("NOT_CONFIGURED", "aiNotConfigured");
  return endpoint;
}

// The environment is read once (lib/env.ts), so one provider instance serves every call.
let cached: { key: string; provider: OpenAICompatibleProvider } | undefined;

function provider(endpoint: ModelEndpoint): OpenAICompatibleProvider {
  const key = `${endpoint.baseURL}\n${endpoint.apiKey ?? ""}`;
  if (cached?.key !== key) {
    cached = {
      key,
      provider: createOpenAICompatible({
        name: "model-provider",
        baseURL: endpoint.baseURL,
        apiKey: endpoint.apiKey,
        // Streams end with a usage chunk: tokens and costs are recorded for streamed runs too.
        includeUsage: true,
      }),
    };
  }
  return cached.provider;
}

/**
 * A chat model of the configured provider, for generateText / streamText.
 * @throws AppError NOT_CONFIGURED (503) when no provider is configured
 */
export function languageModel(modelId: string = defaultModelId()) {
  return provider(requireModelEndpoint()).chatModel(modelId);
}
