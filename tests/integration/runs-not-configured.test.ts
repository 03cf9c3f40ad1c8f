import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as runRoute from "@/app/api/apps/[appId]/run/route";
import { db } from "@/db/client";
import { toolRuns } from "@/db/schema";
import { messages } from "@/lib/messages";
import { createBuilder, createEndUser, createPublishedApp, fromIp } from "../support/factories";
import { call } from "../support/http";

// Without a model provider no run pretends to answer: the builder is told which variable to set,
// end users only that the tool is not available; nothing is recorded or counted. lib/env reads
// the environment once, so it is cleared here, before any request.
for (const name of ["AI_BASE_URL", "AI_API_KEY", "OPENAI_API_KEY", "AI_DEFAULT_MODEL"])
  delete process.env[name];

const runApp = (appId: string, token?: string) =>
  call(runRoute.POST, {
    path: `/api/apps/${appId}/run`,
    params: { appId },
    token,
    headers: fromIp(),
    body: { inputs: { input: "Hello" } },
  });

describe("runs without a model provider", () => {
  it("answers 503: the variable to set for the builder, a plain message for everybody else", async () => {
    const owner = await createBuilder();
    const app = await createPublishedApp(owner.account.accountId);
    const user = await createEndUser(app.id);

    const preview = await runApp(app.id, owner.token);
    expect(preview.status).toBe(503);
    expect(preview.json.error).toEqual({ code: "NOT_CONFIGURED", message: messages.aiNotConfigured });
    expect(messages.aiNotConfigured).toContain("AI_BASE_URL");

    for (const token of [user.token, undefined]) {
      const res = await runApp(app.id, token);
      expect(res.status).toBe(503);
      expect(res.json.error).toEqual({ code: "NOT_CONFIGURED", message: messages.runNotAvailable });
    }
    expect(await db().select().from(toolRuns).where(eq(toolRuns.appId, app.id))).toEqual([]);
  });

  it("still checks the app and the inputs first", async () => {
    const owner = await createBuilder();
    const app = await createPublishedApp(owner.account.accountId);
    const res = await call(runRoute.POST, {
      path: `/api/apps/${app.id}/run`,
      params: { appId: app.id },
      body: { inputs: {} },
    });
    expect(res.status).toBe(400);
    expect(res.json.error?.code).toBe("INPUT_EMPTY");
  });
});
