import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as models from "@/app/api/models/route";
import { clearModelListCache } from "@/lib/ai/models";
import { ModelListAnswer } from "@/lib/ai/schemas";
import { MODEL_LIST_RETRY_MS, MODEL_LIST_TTL_MS } from "@/lib/constants";
import { createBuilder } from "../support/factories";
import { call } from "../support/http";
import { openAiServerEnv, startOpenAiServer } from "../support/openai-server";

// GET /api/models against a local server speaking the OpenAI-compatible API: the provider's
// list, cached and asked once at a time, and the built-in list when the provider fails, is
// slow or is gone. lib/env reads the environment once, so it is set here, before any request.
const server = await startOpenAiServer({
  models: [
    { id: "gpt-4o", name: "GPT-4o" },
    { id: "llama3.2" },
    { id: "gpt-4o-mini" },
    { id: "llama3.2", name: "a repeat" },
  ],
});
for (const name of ["OPENAI_API_KEY", "AI_DEFAULT_MODEL"]) delete process.env[name];
Object.assign(process.env, openAiServerEnv(server));

const modelRequests = () => server.requests.filter((r) => r.path === "/v1/models");

let token: string;
beforeEach(async () => {
  token ??= (await createBuilder()).token;
  clearModelListCache();
  server.reset();
  server.failModels(null);
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(() => server.close());

async function list() {
  const res = await call(models.GET, { method: "GET", path: "/api/models", token });
  expect(res.status).toBe(200);
  return ModelListAnswer.parse(res.json);
}

const FALLBACK_IDS = ["gpt-4o-mini", "gpt-4o", "gpt-4.1-mini", "gpt-4.1-nano", "gpt-4.1", "o4-mini"];

describe("GET /api/models", () => {
  it("lists the provider's models, the default first, each once, with readable labels", async () => {
    expect(await list()).toEqual({
      source: "provider",
      defaultModel: "gpt-4o-mini",
      models: [
        { id: "gpt-4o-mini", label: "GPT-4o mini" },
        { id: "gpt-4o", label: "GPT-4o" },
        { id: "llama3.2", label: "llama3.2" },
      ],
    });
    expect(modelRequests()).toHaveLength(1);
    expect(modelRequests()[0]!.authorization).toBe(`Bearer ${server.apiKey}`);
  });

  it("asks the provider once per 10 minutes, and once for callers arriving together", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const together = await Promise.all([list(), list(), list(), list()]);
    expect(new Set(together.map((l) => l.source))).toEqual(new Set(["provider"]));
    expect(modelRequests()).toHaveLength(1);

    vi.setSystemTime(Date.now() + MODEL_LIST_TTL_MS - 1000);
    await list();
    expect(modelRequests()).toHaveLength(1);

    server.setModels([{ id: "gpt-4o-mini" }, { id: "new-model" }]);
    vi.setSystemTime(Date.now() + 2000);
    expect((await list()).models.map((m) => m.id)).toEqual(["gpt-4o-mini", "new-model"]);
    expect(modelRequests()).toHaveLength(2);
  });

  it("serves the built-in list when the provider's list fails, and asks again a minute later", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    server.failModels({ status: 500 });
    const fallback = await list();
    expect(fallback.source).toBe("fallback");
    expect(fallback.defaultModel).toBe("gpt-4o-mini");
    expect(fallback.models.map((m) => m.id)).toEqual(FALLBACK_IDS);

    // A provider that is down is not asked on every request...
    server.failModels(null);
    expect((await list()).source).toBe("fallback");
    expect(modelRequests()).toHaveLength(1);
    // ...but again once the retry period is over.
    vi.setSystemTime(Date.now() + MODEL_LIST_RETRY_MS + 1000);
    expect((await list()).source).toBe("provider");
    expect(modelRequests()).toHaveLength(2);
  });

  it("gives up on a provider slower than 3 seconds", async () => {
    server.failModels({ delayMs: 10_000 });
    const started = Date.now();
    const answer = await list();
    expect(answer.source).toBe("fallback");
    expect(Date.now() - started).toBeLessThan(6000);
  }, 15_000);

  it("serves the built-in list when the provider answers something else than a model list", async () => {
    server.setModels([]);
    expect((await list()).source).toBe("fallback");
  });

  // Last: the server goes away for good.
  it("serves the built-in list when the provider is unreachable", async () => {
    await server.close();
    const answer = await list();
    expect(answer.source).toBe("fallback");
    expect(answer.models[0]).toEqual({ id: "gpt-4o-mini", label: "GPT-4o mini" });
  });
});
