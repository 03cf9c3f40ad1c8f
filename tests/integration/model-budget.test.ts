import { NextRequest } from "next/server";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import * as chatRoute from "@/app/api/apps/[appId]/chat/route";
import * as magicCreate from "@/app/api/builder/magicCreate/route";
import { counter } from "@/db/queries/rate-limits";
import type { App } from "@/db/schema";
import { CHAT_MESSAGE_MAX, MAGIC_PROMPT_MAX, RUN_INPUT_VALUE_MAX } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { getPlanCapabilities } from "@/lib/plans/capabilities";
import { fillTemplate } from "@/lib/text";
import { createBuilder } from "../support/factories";
import { call } from "../support/http";
import { demoResponder, openAiServerEnv, startOpenAiServer } from "../support/openai-server";
import { eventually, newApp, run } from "../support/runs";
import { createSpaceApp } from "../support/space";

// A builder's model calls spend the operator's money: each one (magic create, the space chat, a
// preview run) reserves a point of the builder's budget by plan BEFORE the model is asked. An
// attacker fires everything at once; the local OpenAI-compatible server counts what got through.
// lib/env reads the environment once: set it first.
const server = await startOpenAiServer({ responder: demoResponder });
for (const name of ["OPENAI_API_KEY", "AI_DEFAULT_MODEL"]) delete process.env[name];
Object.assign(process.env, openAiServerEnv(server));

afterAll(() => server.close());
beforeEach(() => server.reset());

const BURST = 40;
const lite = getPlanCapabilities("lite");
const burst = <T>(n: number, fn: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => fn(i)));
const count = (answers: { status: number }[], status: number) =>
  answers.filter((a) => a.status === status).length;
const codeOf = (answer: { json: unknown }) =>
  (answer.json as { error?: { code?: string } } | null)?.error?.code;

/** What every refusal of a spent budget says, beside the error. */
const perMinuteRefusal = (limit: number) => ({
  error: {
    code: "MODEL_LIMIT_REACHED",
    message: fillTemplate(messages.modelCallsPerMinuteReached, { n: limit }),
  },
  upgradeReason: "modelCalls",
  limit: { period: "minute", limit },
});

const fieldAnswer = JSON.stringify({ name: "age", label: "Age", type: "text" });
const magic = (token: string, prompt: string, input = "age") =>
  call(magicCreate.POST, {
    path: "/api/builder/magicCreate",
    token,
    body: { input, magicType: "field", prompt },
  });

describe("magic create", () => {
  it(`${BURST} parallel calls with the longest prompts from a lite account: at most ${lite.modelCallsPerMinute} reach the model, the rest are 429 with the upgrade reason`, async () => {
    const builder = await createBuilder();
    server.setResponder(() => fieldAnswer);
    const prompt = "Describe the user. ".repeat(MAGIC_PROMPT_MAX).slice(0, MAGIC_PROMPT_MAX);

    const answers = await burst(BURST, () => magic(builder.token, prompt));

    expect(server.chats.length).toBeGreaterThan(0);
    expect(server.chats.length).toBeLessThanOrEqual(lite.modelCallsPerMinute);
    expect(count(answers, 200)).toBe(server.chats.length);
    expect(count(answers, 429)).toBe(BURST - server.chats.length);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.json).toEqual(perMinuteRefusal(lite.modelCallsPerMinute));
  });

  it("a higher plan gets a larger allowance, counted per builder", async () => {
    const explorer = getPlanCapabilities("explorer");
    expect(explorer.modelCallsPerMinute).toBeGreaterThan(lite.modelCallsPerMinute);
    const paid = await createBuilder({ plan: "explorer" });
    const other = await createBuilder();
    server.setResponder(() => fieldAnswer);

    const answers = await burst(BURST, () => magic(paid.token, "A form."));
    expect(count(answers, 200)).toBeGreaterThan(lite.modelCallsPerMinute);
    expect(count(answers, 200)).toBeLessThanOrEqual(explorer.modelCallsPerMinute);
    expect(server.chats.length).toBe(count(answers, 200));
    // Another builder's budget is their own.
    expect((await magic(other.token, "A form.")).status).toBe(200);
  });

  it("the daily budget holds too, and its refusal gives the minute's point back", async () => {
    const builder = await createBuilder();
    server.setResponder(() => fieldAnswer);
    // The day's calls were made earlier (the same counter the service takes its points from).
    const day = counter("model-calls-day", lite.modelCallsPerDay, 24 * 60 * 60);
    for (let i = 0; i < lite.modelCallsPerDay; i++) {
      expect(await day.consume(builder.account.accountId)).toBe(true);
    }

    for (let i = 0; i < lite.modelCallsPerMinute + 1; i++) {
      const res = await magic(builder.token, "A form.");
      expect(res.status).toBe(429);
      expect(res.json).toEqual({
        error: {
          code: "MODEL_LIMIT_REACHED",
          message: fillTemplate(messages.modelCallsPerDayReached, { n: lite.modelCallsPerDay }),
        },
        upgradeReason: "modelCalls",
        limit: { period: "day", limit: lite.modelCallsPerDay },
      });
    }
    expect(server.chats).toHaveLength(0);
  });

  it("the top plan's refusal offers no upgrade", async () => {
    const top = getPlanCapabilities("agency");
    const builder = await createBuilder({ plan: "agency" });
    const minute = counter("model-calls-minute", top.modelCallsPerMinute, 60);
    for (let i = 0; i < top.modelCallsPerMinute; i++) {
      expect(await minute.consume(builder.account.accountId)).toBe(true);
    }
    const res = await magic(builder.token, "A form.");
    expect(res.status).toBe(429);
    expect(res.json).toEqual({
      error: {
        code: "MODEL_LIMIT_REACHED",
        message: fillTemplate(messages.modelCallsPerMinuteReached, { n: top.modelCallsPerMinute }),
      },
      limit: { period: "minute", limit: top.modelCallsPerMinute },
    });
    expect(server.chats).toHaveLength(0);
  });

  it("an oversized prompt is 400 with the field's message, before the model or the budget", async () => {
    const builder = await createBuilder();
    const answers = await burst(BURST, () => magic(builder.token, "x".repeat(19_000)));
    expect(count(answers, 400)).toBe(BURST);
    expect(answers[0]!.json.error!.code).toBe("INVALID_INPUT");
    expect(answers[0]!.json.error).toMatchObject({
      issues: [
        {
          path: "prompt",
          message: fillTemplate(messages.magicPromptTooLong, {
            max: MAGIC_PROMPT_MAX.toLocaleString("en-US"),
          }),
        },
      ],
    });
    expect(server.chats).toHaveLength(0);
    // Nothing was spent.
    server.setResponder(() => fieldAnswer);
    for (let i = 0; i < lite.modelCallsPerMinute; i++) {
      expect((await magic(builder.token, "A form.")).status).toBe(200);
    }
  });
});

function chat(app: App, token: string, body: unknown) {
  const req = new NextRequest(new URL(`/api/apps/${app.id}/chat`, "http://localhost:3000"), {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return chatRoute.POST(req, { params: Promise.resolve({ appId: app.id }) }).then(async (res) => {
    const text = await res.text();
    const isStream = res.headers.get("content-type") === "text/event-stream";
    return { status: res.status, json: isStream ? null : (JSON.parse(text) as Record<string, unknown>) };
  });
}

describe("the space chat", () => {
  it(`${BURST} parallel messages over several space apps of a lite account: at most ${lite.modelCallsPerMinute} reach the model`, async () => {
    const builder = await createBuilder();
    // One answer at a time per app (409 CHAT_BUSY): the burst is spread over more apps than the allowance.
    const spaces = await burst(lite.modelCallsPerMinute + 3, (i) =>
      createSpaceApp(builder.account.accountId, `Space ${i}`),
    );

    const answers = await burst(BURST, (i) =>
      chat(spaces[i % spaces.length]!, builder.token, { text: `A page about topic ${i}` }),
    );

    expect(server.chats.length).toBeGreaterThan(0);
    expect(server.chats.length).toBeLessThanOrEqual(lite.modelCallsPerMinute);
    expect(count(answers, 200)).toBe(server.chats.length);
    const refused = answers.filter((a) => a.status === 429 && codeOf(a) === "MODEL_LIMIT_REACHED");
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]!.json).toEqual(perMinuteRefusal(lite.modelCallsPerMinute));
    // Whatever was not answered or refused for the budget was the busy chat of its app, or (on a
    // slow machine, with more requests in flight than the account's stream slots) a stream refused.
    const streamsFull = answers.filter((a) => a.status === 429 && codeOf(a) === "TOO_MANY_STREAMS");
    expect(count(answers, 200) + refused.length + count(answers, 409) + streamsFull.length).toBe(BURST);
  });

  it("a busy chat gives its point back; an oversized message is 400 with the field's message", async () => {
    const builder = await createBuilder();
    const space = await createSpaceApp(builder.account.accountId);
    const tooLong = await chat(space, builder.token, { text: "x".repeat(CHAT_MESSAGE_MAX + 1) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json).toMatchObject({
      error: {
        issues: [
          {
            path: "text",
            message: fillTemplate(messages.chatMessageTooLong, {
              max: CHAT_MESSAGE_MAX.toLocaleString("en-US"),
            }),
          },
        ],
      },
    });
    expect(server.chats).toHaveLength(0);

    // While a slow answer is written, more messages than the allowance are refused as busy (409),
    // and cost nothing.
    server.script({ text: "Thinking it over.", delayMs: 1500 });
    const slow = chat(space, builder.token, { text: "Take your time" });
    await eventually(
      async () => server.chats.length,
      (n) => n === 1,
    );
    for (let i = 0; i < lite.modelCallsPerMinute + 1; i++) {
      const busy = await chat(space, builder.token, { text: `Hurry ${i}` });
      expect(busy.status).toBe(409);
    }
    expect((await slow).status).toBe(200);

    // Sent one after another, each after the last: the rest of the allowance, then 429.
    for (let i = 1; i < lite.modelCallsPerMinute; i++) {
      expect((await chat(space, builder.token, { text: `Step ${i}` })).status).toBe(200);
    }
    expect((await chat(space, builder.token, { text: "One more" })).status).toBe(429);
    expect(server.chats).toHaveLength(lite.modelCallsPerMinute);
  });
});

describe("preview runs by the builder", () => {
  it(`${BURST} parallel previews from a lite account: at most ${lite.modelCallsPerMinute} reach the model; the app's end users are not held by it`, async () => {
    const owner = await createBuilder();
    const app = await newApp(owner);
    const draft = await newApp(owner, { status: "draft" });

    const answers = await burst(BURST, (i) =>
      run(i % 2 ? app.id : draft.id, { token: owner.token, inputs: { input: `Preview ${i}` } }),
    );

    expect(server.chats.length).toBeGreaterThan(0);
    expect(server.chats.length).toBeLessThanOrEqual(lite.modelCallsPerMinute);
    expect(count(answers, 200)).toBe(server.chats.length);
    expect(count(answers, 429)).toBe(BURST - server.chats.length);
    expect(answers.find((a) => a.status === 429)!.json).toEqual(perMinuteRefusal(lite.modelCallsPerMinute));

    // A visitor of the published app runs it on the app's own limits.
    const before = server.chats.length;
    expect((await run(app.id, { inputs: { input: "Visitor" } })).status).toBe(200);
    expect(server.chats).toHaveLength(before + 1);
  });

  it("an oversized input is 400 with the field's message, before the model", async () => {
    const owner = await createBuilder();
    const app = await newApp(owner);
    const res = await run(app.id, {
      token: owner.token,
      inputs: { input: "x".repeat(RUN_INPUT_VALUE_MAX + 1) },
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      error: {
        issues: [
          {
            path: "inputs.input",
            message: fillTemplate(messages.runInputTooLong, {
              max: RUN_INPUT_VALUE_MAX.toLocaleString("en-US"),
            }),
          },
        ],
      },
    });
    expect(server.chats).toHaveLength(0);
  });
});
