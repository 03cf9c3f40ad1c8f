import { describe, expect, it } from "vitest";
import * as authorize from "@/app/api/integrations/[provider]/authorize/route";
import * as fetchTokens from "@/app/api/integrations/fetchCarbonTokens/route";
import { insertApp } from "@/db/queries/apps";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { callPage } from "../support/connector-flow";
import { createBuilder } from "../support/factories";
import { call } from "../support/http";

// Without their client id and secret, the connectors say which variables to set, and nothing
// pretends to connect. lib/env reads the environment once, so it is cleared here, before any request.
for (const name of [
  "NOTION_CLIENT_ID",
  "NOTION_CLIENT_SECRET",
  "GOOGLE_DRIVE_CLIENT_ID",
  "GOOGLE_DRIVE_CLIENT_SECRET",
])
  delete process.env[name];
// Google sign-in's client is not the Drive connector's.
process.env.GOOGLE_CLIENT_ID = "sign-in-client";
process.env.GOOGLE_CLIENT_SECRET = "sign-in-secret";

type Tokens = {
  accessToken: string;
  maxFiles: number;
  webScraper: { maxDepth: number; maxPages: number };
  connectors: Record<string, { configured: boolean; missingEnv: string[]; connected: boolean }>;
};

describe("connectors without configuration", () => {
  it("fetchCarbonTokens names the missing variables of each connector", async () => {
    const b = await createBuilder();
    const app = await insertApp({ ownerAccountId: b.account.accountId, header: "Unconfigured" });
    const res = await call<Tokens>(fetchTokens.GET, {
      method: "GET",
      path: `/api/integrations/fetchCarbonTokens?appId=${app.id}`,
      token: b.token,
    });
    expect(res.status).toBe(200);
    expect(res.json.connectors).toEqual({
      notion: {
        configured: false,
        missingEnv: ["NOTION_CLIENT_ID", "NOTION_CLIENT_SECRET"],
        connected: false,
        accountName: null,
      },
      "google-drive": {
        configured: false,
        missingEnv: ["GOOGLE_DRIVE_CLIENT_ID", "GOOGLE_DRIVE_CLIENT_SECRET"],
        connected: false,
        accountName: null,
      },
    });
    // Lite: 1 file at a time, depth 2, 20 pages.
    expect(res.json.maxFiles).toBe(1);
    expect(res.json.webScraper).toEqual({ maxDepth: 2, maxPages: 20 });
  });

  it("authorize answers 503 with a page naming the variables, and redirects nowhere", async () => {
    const b = await createBuilder();
    const app = await insertApp({ ownerAccountId: b.account.accountId, header: "Unconfigured" });
    const { json } = await call<Tokens>(fetchTokens.GET, {
      method: "GET",
      path: `/api/integrations/fetchCarbonTokens?appId=${app.id}`,
      token: b.token,
    });
    const page = await callPage(authorize.GET, {
      path: `/api/integrations/google-drive/authorize?token=${json.accessToken}`,
      cookie: b.cookie,
      params: { provider: "google-drive" },
    });
    expect(page.status).toBe(503);
    expect(page.headers.get("location")).toBeNull();
    expect(page.text).toContain(
      fillTemplate(messages.connectorNotConfigured, {
        provider: "Google Drive",
        variables: "GOOGLE_DRIVE_CLIENT_ID, GOOGLE_DRIVE_CLIENT_SECRET",
      }),
    );
  });
});
