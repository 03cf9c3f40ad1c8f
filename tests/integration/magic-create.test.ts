import { eq } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import * as magicCreate from "@/app/api/builder/magicCreate/route";
import { db } from "@/db/client";
import { apps } from "@/db/schema";
import { AppContent, type CustomField } from "@/lib/apps/schemas";
import { MagicCreateAnswer } from "@/lib/builder/schemas";
import { MAGIC_PROMPT_MAX } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { createBuilder, createDraftApp } from "../support/factories";
import { call } from "../support/http";
import { type ChatReply, openAiServerEnv, startOpenAiServer } from "../support/openai-server";

// The real route, the real AI SDK client, over HTTP to a local server speaking the
// OpenAI-compatible API; only the model's words are scripted. lib/env reads the environment
// once, so it is set here, before any request.
const server = await startOpenAiServer();
for (const name of ["OPENAI_API_KEY", "AI_DEFAULT_MODEL"]) delete process.env[name];
Object.assign(process.env, openAiServerEnv(server));

afterAll(() => server.close());
beforeEach(() => server.reset());

type Body = { input: string; magicType?: string; prompt?: string; appId?: string; existingNames?: string[] };

function create(token: string, body: Body) {
  return call<{ result: CustomField; error?: { code: string; message: string } }>(magicCreate.POST, {
    path: "/api/builder/magicCreate",
    token,
    body: { magicType: "field", prompt: "", ...body },
  });
}

/** The model answers `reply` to the next request. */
const modelSays = (reply: ChatReply) => server.script(reply);
const json = (o: unknown) => JSON.stringify(o);
const systemOf = (i = 0) => server.chats[i]!.messages.find((m) => m.role === "system")!.content;
const userOf = (i = 0) => server.chats[i]!.messages.find((m) => m.role === "user")!.content;

describe("POST /api/builder/magicCreate", () => {
  it("asks the default model for one field and answers it, cleaned up and within every rule", async () => {
    const { token } = await createBuilder();
    modelSays(
      `Sure! Here is your field:\n\`\`\`json\n${json({
        name: "Shirt Size",
        label: "Shirt size",
        type: "select",
        required: true,
        instructions: "Use the size to pick the cut.",
        options: ["S", { label: "M" }, "m", "", { value: "L" }],
      })}\n\`\`\`\nHope that helps.`,
    );

    const res = await create(token, { input: "shirt size", prompt: "Recommend an outfit for [shirt_size]." });

    expect(res.status).toBe(200);
    expect(MagicCreateAnswer.parse(res.json).result).toEqual({
      name: "shirt_size",
      label: "Shirt size",
      type: "select",
      required: true,
      personal: false,
      memorize: false,
      stepId: null,
      instructions: "Use the size to pick the cut.",
      // Repeats (case-insensitively) and empty labels are dropped; icons are never invented.
      options: [
        { label: "S", iconUrl: null },
        { label: "M", iconUrl: null },
        { label: "L", iconUrl: null },
      ],
      filterCondition: "none",
      placeholder: "",
    });
    // One call, to the default model, with the typed name and the instructions as context.
    expect(server.chats).toHaveLength(1);
    expect(server.chats[0]!.model).toBe("gpt-4o-mini");
    expect(server.requests[0]!.authorization).toBe(`Bearer ${server.apiKey}`);
    expect(userOf()).toContain('Field name: "shirt size"');
    expect(userOf()).toContain("Recommend an outfit for [shirt_size].");
  });

  it("offers only the types the caller may add, and turns any other answer into text", async () => {
    const lite = await createBuilder();
    const paid = await createBuilder({ plan: "explorer" });
    const admin = await createBuilder({ isAdmin: true, plan: "moon" });
    const allowed = () => /Allowed types: (.*)/.exec(systemOf())![1]!.split(", ");

    // Lite: no photo (paid plans only), no place / tool_item_select (admins only).
    modelSays(json({ name: "selfie", type: "photo" }));
    let res = await create(lite.token, { input: "selfie" });
    expect(res.json.result.type).toBe("text");
    expect(allowed()).toEqual(["text", "long_text", "select", "multiselect", "email", "height", "weight"]);

    server.reset();
    modelSays(json({ name: "selfie", type: "photo" }));
    res = await create(paid.token, { input: "selfie" });
    expect(res.json.result.type).toBe("photo");
    expect(allowed()).toContain("photo");
    expect(allowed()).not.toContain("place");

    server.reset();
    modelSays(json({ name: "city", type: "place" }));
    res = await create(paid.token, { input: "city" });
    expect(res.json.result.type).toBe("text");

    server.reset();
    modelSays(json({ name: "city", type: "place" }));
    res = await create(admin.token, { input: "city" });
    expect(res.json.result.type).toBe("place");
    expect(allowed()).toEqual(expect.arrayContaining(["place", "tool_item_select", "photo"]));
  });

  it("applies the field rules: an email field is personal, options only where they belong", async () => {
    const { token } = await createBuilder();
    modelSays(json({ field: { name: "work_email", type: "email", options: ["a", "b"] } }));
    const res = await create(token, { input: "work email" });
    expect(res.status).toBe(200);
    expect(res.json.result).toMatchObject({
      name: "work_email",
      label: "Work email",
      type: "email",
      personal: true,
      options: [],
    });
  });

  it("refuses 'input' as a name, typed or made by the model", async () => {
    const { token } = await createBuilder();
    const typed = await create(token, { input: "Input" });
    expect(typed.status).toBe(400);
    expect(typed.json.error).toEqual({ code: "FIELD_NAME_RESERVED", message: messages.reservedFieldName });
    expect(server.chats).toHaveLength(0);

    modelSays(json({ name: "INPUT", type: "text" }));
    const made = await create(token, { input: "the main question" });
    expect(made.status).toBe(400);
    expect(made.json.error).toEqual({ code: "FIELD_NAME_RESERVED", message: messages.reservedFieldName });
    expect(messages.reservedFieldName).toBe("Input is a reserved field name, try another name");
  });

  it("refuses a name the editor already has, whatever its case", async () => {
    const { token } = await createBuilder();
    const typed = await create(token, { input: "email", existingNames: ["Email"] });
    expect(typed.status).toBe(409);
    expect(typed.json.error).toEqual({ code: "FIELD_EXISTS", message: messages.magicFieldExists });
    expect(server.chats).toHaveLength(0);

    modelSays(json({ name: "Email", type: "email" }));
    const made = await create(token, { input: "contact address", existingNames: ["email"] });
    expect(made.status).toBe(409);
    expect(made.json.error?.message).toBe("Field already exists, try another name");
    // The model was told which names are taken.
    expect(systemOf()).toContain('"email"');
  });

  it("with appId, keeps the app's saved field names unique, for its editors only", async () => {
    const owner = await createBuilder();
    const stranger = await createBuilder();
    const app = await createDraftApp(owner.account.accountId);
    const content = AppContent.parse({ fields: [{ name: "budget", label: "Budget", type: "text" }] });
    await db().update(apps).set({ content }).where(eq(apps.id, app.id));

    modelSays(json({ name: "Budget", type: "text" }));
    const clash = await create(owner.token, { input: "how much to spend", appId: app.id });
    expect(clash.status).toBe(409);
    expect(clash.json.error?.message).toBe(messages.magicFieldExists);

    modelSays(json({ name: "budget_limit", type: "text" }));
    const ok = await create(owner.token, { input: "how much to spend at most", appId: app.id });
    expect(ok.status).toBe(200);
    expect(ok.json.result.name).toBe("budget_limit");

    const other = await create(stranger.token, { input: "anything", appId: app.id });
    expect(other.status).toBe(404);
    expect(other.json.error?.message).toBe(messages.appNotFound);
  });

  it("answers 'Magic edit failed, try again using a different field name' when the model gives no name", async () => {
    const { token } = await createBuilder();
    modelSays("Sorry, I can't help with that field.");
    const prose = await create(token, { input: "favourite thing" });
    expect(prose.status).toBe(502);
    expect(prose.json.error).toEqual({ code: "LLM_OUTPUT_NOT_JSON", message: messages.magicEditNoName });

    modelSays(json({ label: "Favourite thing", type: "text" }));
    const nameless = await create(token, { input: "favourite thing" });
    expect(nameless.status).toBe(502);
    expect(nameless.json.error).toEqual({ code: "NO_FIELD_NAME", message: messages.magicEditNoName });

    modelSays(json({ name: "!!!", type: "text" }));
    const unusable = await create(token, { input: "favourite thing" });
    expect(unusable.json.error?.code).toBe("NO_FIELD_NAME");
    expect(messages.magicEditNoName).toBe("Magic edit failed, try again using a different field name");
  });

  it("answers 502 'Magic edit failed' when the provider fails, after one retry", async () => {
    const { token } = await createBuilder();
    // retry-after-ms, as OpenAI sends it, keeps the client's backoff short here.
    modelSays({ status: 500, message: "overloaded", retryAfterMs: 10 });
    modelSays({ status: 500, message: "overloaded", retryAfterMs: 10 });
    const res = await create(token, { input: "age" });
    expect(res.status).toBe(502);
    expect(res.json.error).toEqual({ code: "MODEL_FAILED", message: messages.magicEditFailed });
    expect(messages.magicEditFailed).toBe("Magic edit failed");
    expect(server.chats).toHaveLength(2);

    // A retry that succeeds is invisible to the builder.
    modelSays({ status: 503, retryAfterMs: 10 });
    modelSays(json({ name: "age", type: "text" }));
    const retried = await create(token, { input: "age" });
    expect(retried.status).toBe(200);
    expect(retried.json.result.name).toBe("age");
  });

  it("checks the request: only magicType field, a bounded input", async () => {
    const { token } = await createBuilder();
    const wrongType = await create(token, { input: "age", magicType: "tool" });
    expect(wrongType.status).toBe(400);
    expect(wrongType.json.error?.code).toBe("INVALID_INPUT");
    const long = await create(token, { input: "x".repeat(201) });
    expect(long.status).toBe(400);
    const blank = await create(token, { input: "   " });
    expect(blank.status).toBe(400);
    const tooLong = await create(token, { input: "age", prompt: "é".repeat(MAGIC_PROMPT_MAX + 1) });
    expect(tooLong.status).toBe(400);
    // A NUL or a lone surrogate cannot be stored anywhere: refused with its own message.
    for (const input of ["a\u0000ge", "\ud800"]) {
      const broken = await create(token, { input });
      expect(broken.status, input).toBe(400);
      expect(broken.json.error?.code).toBe("INVALID_INPUT");
    }
    // Nothing a name could be made of (no letter or digit of any script): the model is not asked.
    for (const input of ["\u{1F600}", "\u202e\uFEFF", "!!!"]) {
      const nameless = await create(token, { input });
      expect(nameless.status, input).toBe(400);
      expect(nameless.json.error).toEqual({ code: "NO_FIELD_NAME", message: messages.magicEditNoName });
    }
    expect(server.chats).toHaveLength(0);

    // Instructions of the longest allowed length get through.
    modelSays(json({ name: "age", type: "text" }));
    const longest = await create(token, { input: "age", prompt: "é".repeat(MAGIC_PROMPT_MAX) });
    expect(longest.status).toBe(200);
    expect(userOf()).toContain("é".repeat(MAGIC_PROMPT_MAX));
  });
});
