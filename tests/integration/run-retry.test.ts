import { eq } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { toolRuns } from "@/db/schema";
import { messages } from "@/lib/messages";
import { createBuilder } from "../support/factories";
import { openAiServerEnv, startOpenAiServer } from "../support/openai-server";
import { eventually, newApp, run } from "../support/runs";

// The model call of a run retries once what the provider marks retryable (a refused connection,
// 408/409/429/5xx), after the wait the provider asks for, and nothing else
// (one retry on a failure before the first word). lib/runs/model-stream.ts does this itself,
// as streamText did: these pin the behaviour it keeps.
const server = await startOpenAiServer();
for (const name of ["OPENAI_API_KEY", "AI_DEFAULT_MODEL"]) delete process.env[name];
Object.assign(process.env, openAiServerEnv(server));

afterAll(() => server.close());
beforeEach(() => server.reset());

const runsOf = (appId: string) => db().select().from(toolRuns).where(eq(toolRuns.appId, appId));

describe("the model call's retry", () => {
  it("a 503 before the answer is asked again after the provider's retry-after-ms; the second answer streams", async () => {
    const app = await newApp(await createBuilder());
    server.script({ status: 503, message: "Try again", retryAfterMs: 300 }, "Second time lucky.");

    const started = Date.now();
    const res = await run(app.id);
    expect(res.status).toBe(200);
    expect(res.stream!.answer).toBe("Second time lucky.");
    // Waited as the provider asked (not the 2 s default), then asked once more.
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(server.chats).toHaveLength(2);
    expect(server.chats[1]!.body).toEqual(server.chats[0]!.body);
    const [recorded] = await eventually(
      () => runsOf(app.id),
      (rows) => rows[0]?.status === "success",
    );
    expect(recorded).toMatchObject({ status: "success", output: "Second time lucky.", credits: 1 });
  });

  it("a 400 is not retried: one request, a 502, the run an error that costs nothing", async () => {
    const app = await newApp(await createBuilder());
    server.script({ status: 400, message: "Unknown parameter" }, "Never asked for.");

    const res = await run(app.id);
    expect(res.status).toBe(502);
    expect(res.json!.error).toEqual({ code: "MODEL_FAILED", message: messages.runFailed });
    expect(server.chats).toHaveLength(1);
    const [recorded] = await runsOf(app.id);
    expect(recorded).toMatchObject({ status: "error", credits: 0, output: "" });
    expect(recorded!.error).toContain("400");
    expect(recorded!.error).toContain("Unknown parameter");
  });
});
