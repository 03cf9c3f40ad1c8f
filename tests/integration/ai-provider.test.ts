import { generateText, streamText } from "ai";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { languageModel } from "@/lib/ai/provider";
import { openAiServerEnv, startOpenAiServer } from "../support/openai-server";

// The provider module drives the AI SDK over HTTP, plain and streamed (Server-Sent Events with
// the usage chunk that includeUsage asks for). This is also the check that the SDK runs on the
// Node version of this machine. lib/env reads the environment once, so it is set here.
const server = await startOpenAiServer();
for (const name of ["OPENAI_API_KEY", "AI_DEFAULT_MODEL"]) delete process.env[name];
Object.assign(process.env, openAiServerEnv(server));

afterAll(() => server.close());
beforeEach(() => server.reset());

describe("the model provider (lib/ai/provider.ts)", () => {
  it("generates text with the default model, the key as a Bearer token", async () => {
    const result = await generateText({
      model: languageModel(),
      instructions: "Be brief.",
      prompt: "hello there",
    });
    expect(result.text).toBe("Echo: hello there");
    expect(result.finishReason).toBe("stop");
    expect(result.usage.totalTokens).toBeGreaterThan(0);
    expect(server.chats[0]).toMatchObject({ model: "gpt-4o-mini", stream: false });
    expect(server.chats[0]!.messages[0]).toEqual({ role: "system", content: "Be brief." });
    expect(server.requests[0]!.authorization).toBe(`Bearer ${server.apiKey}`);
  });

  it("streams text delta by delta, with the usage of the last chunk", async () => {
    server.script("one two three four");
    const result = streamText({ model: languageModel("gpt-4o"), prompt: "count" });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    expect(deltas.join("")).toBe("one two three four");
    expect(deltas.length).toBeGreaterThan(1);
    expect(await result.finishReason).toBe("stop");
    expect((await result.usage).outputTokens).toBe(Math.ceil("one two three four".length / 4));
    expect(server.chats[0]!.body).toMatchObject({
      model: "gpt-4o",
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("surfaces the provider's HTTP errors", async () => {
    server.script({ status: 400, message: "bad request body" });
    await expect(generateText({ model: languageModel(), prompt: "x", maxRetries: 0 })).rejects.toMatchObject({
      statusCode: 400,
    });
  });
});
