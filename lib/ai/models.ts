import "server-only";
import {
  MODEL_LIST_MAX,
  MODEL_LIST_RETRY_MS,
  MODEL_LIST_TIMEOUT_MS,
  MODEL_LIST_TTL_MS,
} from "@/lib/constants";
import { logError } from "@/lib/log";
import { defaultModelId, type ModelEndpoint, modelEndpoint } from "./provider";
import { type ModelListAnswer, type ModelOption, ProviderModelList } from "./schemas";

// The model dropdown's list: "a public model list from a model router service",
// here the configured endpoint's GET /models. It is asked at most once per MODEL_LIST_TTL_MS
// and process (concurrent callers share one request), with a short timeout: the dropdown must
// open even when the provider is slow or down, so then the built-in list answers instead.

/** Common models of OpenAI's API, the default first. Shown when the provider's list is unavailable. */
const FALLBACK_MODELS: ModelOption[] = [
  { id: "gpt-4o-mini", label: "GPT-4o mini" },
  { id: "gpt-4o", label: "GPT-4o" },
  { id: "gpt-4.1-mini", label: "GPT-4.1 mini" },
  { id: "gpt-4.1-nano", label: "GPT-4.1 nano" },
  { id: "gpt-4.1", label: "GPT-4.1" },
  { id: "o4-mini", label: "o4-mini" },
];
const KNOWN_LABELS = new Map(FALLBACK_MODELS.map((m) => [m.id, m.label]));

let cache: { value: ModelListAnswer; expiresAt: number } | undefined;
let inflight: Promise<ModelListAnswer> | undefined;

/** The models to choose from, the default model first; never throws. */
export async function listModels(): Promise<ModelListAnswer> {
  const endpoint = modelEndpoint();
  if (!endpoint) return withDefault(FALLBACK_MODELS, "not_configured");
  if (cache && cache.expiresAt > Date.now()) return cache.value;
  inflight ??= refresh(endpoint).finally(() => {
    inflight = undefined;
  });
  return inflight;
}

/** Forgets the cached list, so the next call asks the provider again. */
export function clearModelListCache(): void {
  cache = undefined;
}

async function refresh(endpoint: ModelEndpoint): Promise<ModelListAnswer> {
  try {
    const models = await fetchProviderModels(endpoint);
    if (models.length > 0) {
      const value = withDefault(models, "provider");
      cache = { value, expiresAt: Date.now() + MODEL_LIST_TTL_MS };
      return value;
    }
    logError("model list: the provider listed no models", { baseURL: endpoint.baseURL });
  } catch (err) {
    logError("model list: the provider's list failed, serving the built-in list", {
      baseURL: endpoint.baseURL,
      err,
    });
  }
  // A provider that is down is asked again a little later, not on every request.
  const value = withDefault(FALLBACK_MODELS, "fallback");
  cache = { value, expiresAt: Date.now() + MODEL_LIST_RETRY_MS };
  return value;
}

async function fetchProviderModels(endpoint: ModelEndpoint): Promise<ModelOption[]> {
  const res = await fetch(`${endpoint.baseURL}/models`, {
    headers: endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {},
    signal: AbortSignal.timeout(MODEL_LIST_TIMEOUT_MS),
    cache: "no-store",
  });
  if (!res.ok) throw new Error(`GET /models answered ${res.status}`);
  const { data } = ProviderModelList.parse(await res.json());
  const seen = new Set<string>();
  const models: ModelOption[] = [];
  for (const m of data) {
    if (seen.has(m.id)) continue;
    seen.add(m.id);
    models.push({ id: m.id, label: m.name?.trim() || KNOWN_LABELS.get(m.id) || m.id });
    if (models.length === MODEL_LIST_MAX) break;
  }
  return models;
}

/**
 * The default model heads the list. It is the model used when an app chooses none, so it is
 * listed even when the provider does not name it (the dropdown shows what will run).
 */
function withDefault(models: ModelOption[], source: ModelListAnswer["source"]): ModelListAnswer {
  const defaultModel = defaultModelId();
  const found = models.find((m) => m.id === defaultModel);
  const head = found ?? { id: defaultModel, label: KNOWN_LABELS.get(defaultModel) ?? defaultModel };
  return { models: [head, ...models.filter((m) => m.id !== defaultModel)], source, defaultModel };
}
