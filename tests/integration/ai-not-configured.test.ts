import { describe, expect, it } from "vitest";
import * as magicCreate from "@/app/api/builder/magicCreate/route";
import * as csvMapping from "@/app/api/csv/generateMapping/route";
import * as models from "@/app/api/models/route";
import { ModelListAnswer } from "@/lib/ai/schemas";
import { messages } from "@/lib/messages";
import { createBuilder } from "../support/factories";
import { call } from "../support/http";

// Without a model provider nothing pretends to think: the AI features answer 503 naming the
// variables to set (the CSV mapping, which the import cannot wait for, its basic name match), and
// the model dropdown still opens with the built-in list. lib/env reads
// the environment once, so it is cleared here, before any request.
for (const name of ["AI_BASE_URL", "AI_API_KEY", "OPENAI_API_KEY", "AI_DEFAULT_MODEL"])
  delete process.env[name];

describe("AI features without a model provider", () => {
  it("magicCreate answers 503 naming AI_BASE_URL", async () => {
    const { token } = await createBuilder();
    const res = await call(magicCreate.POST, {
      path: "/api/builder/magicCreate",
      token,
      body: { input: "shirt size", magicType: "field", prompt: "" },
    });
    expect(res.status).toBe(503);
    expect(res.json.error).toEqual({ code: "NOT_CONFIGURED", message: messages.aiNotConfigured });
    expect(messages.aiNotConfigured).toContain("set AI_BASE_URL");
    expect(messages.aiNotConfigured).toContain("OPENAI_API_KEY");
  });

  it("checks the request before the configuration: a reserved name is still a 400", async () => {
    const { token } = await createBuilder();
    const res = await call(magicCreate.POST, {
      path: "/api/builder/magicCreate",
      token,
      body: { input: "input", magicType: "field", prompt: "" },
    });
    expect(res.status).toBe(400);
    expect(res.json.error?.message).toBe(messages.reservedFieldName);
  });

  it("the CSV mapping answers the basic name match with the spec's message", async () => {
    const { token } = await createBuilder();
    const res = await call(csvMapping.POST, {
      path: "/api/csv/generateMapping",
      token,
      body: {
        headers: ["title", "Extra"],
        schema: { properties: { Title: { type: "string" } } },
        entityName: "Task",
      },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      fallback: true,
      message: messages.csvMappingFallback,
      mappings: [
        { csvHeader: "title", schemaField: "Title", dataType: "text", splitCharacter: null },
        { csvHeader: "Extra", schemaField: null, dataType: "text", splitCharacter: null },
      ],
    });
  });

  it("the model list is the built-in one, the default first", async () => {
    const { token } = await createBuilder();
    const res = await call(models.GET, { method: "GET", path: "/api/models", token });
    expect(res.status).toBe(200);
    const list = ModelListAnswer.parse(res.json);
    expect(list.source).toBe("not_configured");
    expect(list.defaultModel).toBe("gpt-4o-mini");
    expect(list.models[0]).toEqual({ id: "gpt-4o-mini", label: "GPT-4o mini" });
  });
});
