import "server-only";
import { createOpenAICompatible, type OpenAICompatibleProvider } from "@ai-sdk/openai-compatible";
import { DEFAULT_MODEL } from "@/lib/constants";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { httpFetch } from "./http-fetch";

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

/**
 * How model requests travel: the global fetch, or node:http with keep-alive sockets
 * (lib/ai/http-fetch.ts: one socket write per request, no Next fetch wrapper), which tool runs
 * use for the latency of their first word.
 */
export type ModelTransport = "fetch" | "http";

// The environment is read once (lib/env.ts), so one provider instance per transport serves every call.
const cached = new Map<ModelTransport, { key: string; provider: OpenAICompatibleProvider }>();

function provider(endpoint: ModelEndpoint, transport: ModelTransport): OpenAICompatibleProvider {
  const key = `${endpoint.baseURL}\n${endpoint.apiKey ?? ""}`;
  let found = cached.get(transport);
  if (found?.key !== key) {
    found = {
      key,
      provider: createOpenAICompatible({
        name: "model-provider",
        baseURL: endpoint.baseURL,
        apiKey: endpoint.apiKey,
        // Streams end with a usage chunk: tokens and costs are recorded for streamed runs too.
        includeUsage: true,
        ...(transport === "http" ? { fetch: httpFetch } : {}),
      }),
    };
    cached.set(transport, found);
  }
  return found.provider;
}

/**
 * A chat model of the configured provider, for generateText / streamText.
 * @throws AppError NOT_CONFIGURED (503) when no provider is configured
 */
export function languageModel(modelId: string = defaultModelId(), transport: ModelTransport = "fetch") {
  return provider(requireModelEndpoint(), transport).chatModel(modelId);
}
