import { eq } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { findRun } from "@/db/queries/runs";
import { toolRuns } from "@/db/schema";
import { messages } from "@/lib/messages";
import { RUN_ID_HEADER } from "@/lib/runs/schemas";
import { createBuilder, randomIp } from "../support/factories";
import { openAiServerEnv, startOpenAiServer } from "../support/openai-server";
import { eventually, newApp, parseStream, run, startRun } from "../support/runs";

// RUN_TIMEOUT_MS: past it the server cuts a run. The default 120 s is shortened
// through the environment, which lib/env reads once per test file, before anything reads it; a
// file of its own, so the other run tests keep the real timeout. The model is slower than the
// timeout by far: without the cut these runs would end in an answer (or not within the test's time).
const TIMEOUT_MS = 1500;
const MODEL_LATE_MS = 10_000;
const server = await startOpenAiServer();
for (const name of ["OPENAI_API_KEY", "AI_DEFAULT_MODEL"]) delete process.env[name];
Object.assign(process.env, openAiServerEnv(server), { RUN_TIMEOUT_MS: String(TIMEOUT_MS) });

afterAll(() => server.close());
beforeEach(() => server.reset());

const runsOf = (appId: string) => db().select().from(toolRuns).where(eq(toolRuns.appId, appId));

describe("a run past RUN_TIMEOUT_MS", () => {
  it("with no word from the model yet: 502 MODEL_TIMEOUT, the run recorded aborted and its credits given back", async () => {
    const owner = await createBuilder();
    const app = await newApp(owner, { settings: { dailyUserLimit: 1 } });
    const ip = randomIp();
    server.script({ text: "Far too late.", delayMs: MODEL_LATE_MS });

    const started = Date.now();
    const res = await run(app.id, { ip });
    const elapsed = Date.now() - started;
    expect(res.status).toBe(502);
    expect(res.json!.error).toEqual({ code: "MODEL_TIMEOUT", message: messages.runTimedOut });
    // Cut by the timeout, not by the model's answer (or a retry of it).
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(MODEL_LATE_MS - 2000);
    expect(server.chats).toHaveLength(1);

    const [recorded] = await runsOf(app.id);
    expect(recorded).toMatchObject({
      status: "aborted",
      credits: 0,
      output: "",
      error: messages.runTimedOut,
    });
    expect(recorded!.finishedAt).not.toBeNull();
    // The model request was aborted, not left to answer nobody.
    await eventually(
      async () => server.clientClosed.length,
      (n) => n === 1,
    );
    expect(server.clientClosed).toHaveLength(1);

    // Nothing was charged: the limit of 1 still lets the next run through.
    const next = await run(app.id, { ip });
    expect(next.status).toBe(200);
    expect(next.stream!.done).toBe(true);
  });

  it("after the first word: the words so far, then the error part runTimedOut; the run aborted with its partial output", async () => {
    const owner = await createBuilder();
    const app = await newApp(owner, { settings: { dailyUserLimit: 5 } });
    // The first word comes at once, the next one long after the timeout.
    server.script({ text: "First words, then nothing for a long while.", chunkDelayMs: MODEL_LATE_MS });

    const started = Date.now();
    const res = await startRun(app.id);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const { parts, answer, done } = parseStream(await res.text());
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(MODEL_LATE_MS - 2000);
    expect(answer).toBe("First ");
    expect(parts.at(-1)).toEqual({ type: "error", errorText: messages.runTimedOut });
    expect(parts.some((p) => p.type === "finish" || p.type === "text-end")).toBe(false);
    expect(done).toBe(true);

    const recorded = await eventually(
      async () => (await findRun(res.headers.get(RUN_ID_HEADER)!))!,
      (r) => r.status !== "running",
    );
    // Some words were produced: they are kept, and the run counts.
    expect(recorded).toMatchObject({
      status: "aborted",
      output: "First ",
      credits: 1,
      error: messages.runTimedOut,
    });
    await eventually(
      async () => server.clientClosed.length,
      (n) => n === 1,
    );
    expect(server.clientClosed).toHaveLength(1);
  });
});
