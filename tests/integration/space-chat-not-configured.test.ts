import { describe, expect, it } from "vitest";
import * as historyRoute from "@/app/api/apps/[appId]/chat/history/route";
import * as chatRoute from "@/app/api/apps/[appId]/chat/route";
import { messages } from "@/lib/messages";
import { createBuilder } from "../support/factories";
import { call } from "../support/http";
import { createSpaceApp } from "../support/space";

// A space app's chat without a model provider: 503 naming the variables to set, before anything is
// stored. lib/env reads the environment once, so it is cleared here, before any request.
for (const name of ["AI_BASE_URL", "AI_API_KEY", "OPENAI_API_KEY", "AI_DEFAULT_MODEL"])
  delete process.env[name];

describe("POST /api/apps/{appId}/chat without a model provider", () => {
  it("answers 503 naming AI_BASE_URL and stores no message", async () => {
    const builder = await createBuilder();
    const app = await createSpaceApp(builder.account.accountId);
    const res = await call(chatRoute.POST, {
      path: `/api/apps/${app.id}/chat`,
      params: { appId: app.id },
      token: builder.token,
      body: { text: "A home page" },
    });
    expect(res.status).toBe(503);
    expect(res.json.error).toEqual({ code: "NOT_CONFIGURED", message: messages.aiNotConfigured });
    expect(messages.aiNotConfigured).toContain("AI_BASE_URL");
    const history = await call<{ messages: unknown[] }>(historyRoute.GET, {
      method: "GET",
      path: `/api/apps/${app.id}/chat/history`,
      params: { appId: app.id },
      token: builder.token,
    });
    expect(history.json.messages).toEqual([]);
  });
});
