import { afterAll, beforeEach, describe, expect, it } from "vitest";
import * as generateMapping from "@/app/api/csv/generateMapping/route";
import type { GenerateMappingAnswer } from "@/lib/csv/schemas";
import { messages } from "@/lib/messages";
import { getPlanCapabilities } from "@/lib/plans/capabilities";
import { fillTemplate } from "@/lib/text";
import { createBuilder } from "../support/factories";
import { call } from "../support/http";
import { type ChatReply, demoResponder, openAiServerEnv, startOpenAiServer } from "../support/openai-server";

// The real route and the real AI SDK client, over HTTP to a local server speaking the
// OpenAI-compatible API (the demo model unless a reply is scripted). lib/env reads the
// environment once: set it first.
const server = await startOpenAiServer({ responder: demoResponder });
for (const name of ["OPENAI_API_KEY", "AI_DEFAULT_MODEL"]) delete process.env[name];
Object.assign(process.env, openAiServerEnv(server));

afterAll(() => server.close());
beforeEach(() => server.reset());

const schema = {
  type: "object",
  properties: {
    title: { type: "string" },
    done: { type: "boolean" },
    tags: { type: "array", items: { type: "string", enum: ["home", "work"] } },
    dueDate: { type: "string", format: "date-time" },
  },
};
const body = (headers: string[], previewData: Record<string, string>[] = []) => ({
  headers,
  previewData,
  schema,
  entityName: "Task",
});

function map(token: string, b: unknown) {
  return call<GenerateMappingAnswer & { error?: { code: string; message: string } }>(generateMapping.POST, {
    path: "/api/csv/generateMapping",
    token,
    body: b,
  });
}
const modelSays = (reply: ChatReply) => server.script(reply, reply);

describe("POST /api/csv/generateMapping", () => {
  it("answers the demo model's mapping: by name likeness, with the split character of the samples", async () => {
    const { token } = await createBuilder();
    const res = await map(
      token,
      body(
        ["Task title", "Is done", "Tags", "Notes"],
        [{ "Task title": "Tea", "Is done": "yes", Tags: "home|work", Notes: "" }],
      ),
    );
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      fallback: false,
      mappings: [
        { csvHeader: "Task title", schemaField: "title", dataType: "text", splitCharacter: null },
        { csvHeader: "Is done", schemaField: "done", dataType: "boolean", splitCharacter: null },
        { csvHeader: "Tags", schemaField: "tags", dataType: "multiselect", splitCharacter: "|" },
        { csvHeader: "Notes", schemaField: null, dataType: "text", splitCharacter: null },
      ],
    });
    // One call, with the headers, the samples and the entity's fields.
    expect(server.chats).toHaveLength(1);
    const system = server.chats[0]!.messages.find((m) => m.role === "system")!.content;
    expect(system).toContain("- tags: multiselect");
    expect(system).toContain("- creatorId: text");
    const user = server.chats[0]!.messages.find((m) => m.role === "user")!.content;
    expect(user).toContain('CSV headers: ["Task title","Is done","Tags","Notes"]');
    expect(user).toContain('"Tags":"home|work"');
  });

  it("keeps only what the schema allows of the model's answer", async () => {
    const { token } = await createBuilder();
    modelSays(
      JSON.stringify({
        mappings: [
          // A field the entity has not: unmapped.
          { csvHeader: "A", schemaField: "password", dataType: "text", splitCharacter: null },
          // A type the field has not: the schema's; a split character for a non-multiselect: none.
          { csvHeader: "B", schemaField: "title", dataType: "number", splitCharacter: ";" },
          // The same field again: unmapped.
          { csvHeader: "C", schemaField: "title", dataType: "text", splitCharacter: null },
          // A split character by name; the field named in other case.
          { csvHeader: "D", schemaField: "TAGS", dataType: "multiselect", splitCharacter: "semicolon" },
          // A split character that is none of the five: a comma.
          { csvHeader: "E", schemaField: "dueDate", dataType: "datetime", splitCharacter: "~" },
          // A header the file has not: dropped.
          { csvHeader: "Z", schemaField: "done", dataType: "boolean", splitCharacter: null },
        ],
      }),
    );
    const res = await map(token, body(["A", "B", "C", "D", "E", "F"]));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      fallback: false,
      mappings: [
        { csvHeader: "A", schemaField: null, dataType: "text", splitCharacter: null },
        { csvHeader: "B", schemaField: "title", dataType: "text", splitCharacter: null },
        { csvHeader: "C", schemaField: null, dataType: "text", splitCharacter: null },
        { csvHeader: "D", schemaField: "tags", dataType: "multiselect", splitCharacter: ";" },
        { csvHeader: "E", schemaField: "dueDate", dataType: "datetime", splitCharacter: null },
        // Left out by the model: unmapped.
        { csvHeader: "F", schemaField: null, dataType: "text", splitCharacter: null },
      ],
    });
  });

  const fallback = {
    fallback: true,
    message: messages.csvMappingFallback,
    mappings: [
      { csvHeader: "TITLE", schemaField: "title", dataType: "text", splitCharacter: null },
      { csvHeader: " tags ", schemaField: "tags", dataType: "multiselect", splitCharacter: "," },
      { csvHeader: "Title", schemaField: null, dataType: "text", splitCharacter: null },
      { csvHeader: "Owner", schemaField: null, dataType: "text", splitCharacter: null },
    ],
  };

  it("answers the basic mapping with the spec's message when the provider fails", async () => {
    const { token } = await createBuilder();
    modelSays({ status: 503, message: "The model is overloaded." });
    const res = await map(token, body(["TITLE", " tags ", "Title", "Owner"]));
    expect(res.status).toBe(200);
    expect(res.json).toEqual(fallback);
    expect(messages.csvMappingFallback).toBe(
      "Couldn't generate AI mapping suggestions. Using basic mapping instead.",
    );
  });

  it("answers the basic mapping when the model's answer is not the JSON asked for, or names no header", async () => {
    const { token } = await createBuilder();
    modelSays("I think Title goes to title.");
    expect((await map(token, body(["TITLE", " tags ", "Title", "Owner"]))).json).toEqual(fallback);
    server.reset();
    modelSays(JSON.stringify({ mappings: [{ csvHeader: "Nope", schemaField: "title" }] }));
    expect((await map(token, body(["TITLE", " tags ", "Title", "Owner"]))).json).toEqual(fallback);
  });

  it("counts each call in the builder's model limits: a spent budget is 429 with the limits' message", async () => {
    const { token } = await createBuilder();
    const { modelCallsPerMinute } = getPlanCapabilities("lite");
    for (let i = 0; i < modelCallsPerMinute; i++) {
      expect((await map(token, body(["Title"]))).status).toBe(200);
    }
    const res = await map(token, body(["Title"]));
    expect(res.status).toBe(429);
    expect(res.json.error).toEqual({
      code: "MODEL_LIMIT_REACHED",
      message: fillTemplate(messages.modelCallsPerMinuteReached, { n: modelCallsPerMinute }),
    });
    // The refused call never reached the model.
    expect(server.chats).toHaveLength(modelCallsPerMinute);
  });

  it("refuses bad bodies with 400, before any model call", async () => {
    const { token } = await createBuilder();
    for (const bad of [
      body([]),
      body(["A", "A"]),
      body(["A".repeat(201)]),
      body(Array.from({ length: 201 }, (_, i) => `c${i}`)),
      body(
        ["A"],
        Array.from({ length: 6 }, () => ({ A: "x" })),
      ),
      { ...body(["A"]), entityName: "1 Task" },
      { ...body(["A"]), schema: "no" },
      body(["A\u0000"]),
    ]) {
      expect((await map(token, bad)).status).toBe(400);
    }
    expect(server.chats).toHaveLength(0);
  });
});
