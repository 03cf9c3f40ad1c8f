import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import * as chatRoute from "@/app/api/apps/[appId]/chat/route";
import * as fileHistoryRoute from "@/app/api/apps/[appId]/files/history/route";
import * as appRoute from "@/app/api/apps/[appId]/route";
import * as runRoute from "@/app/api/apps/[appId]/run/route";
import * as settingsRoute from "@/app/api/apps/[appId]/settings/route";
import * as toolRoute from "@/app/api/apps/[appId]/tools/[toolId]/route";
import * as toolsRoute from "@/app/api/apps/[appId]/tools/route";
import * as versionFileRoute from "@/app/api/apps/[appId]/versions/[versionId]/file/route";
import * as appsRoute from "@/app/api/apps/route";
import * as contextItemRoute from "@/app/api/context/[id]/route";
import { insertApp, insertTool } from "@/db/queries/apps";
import { insertContextItem } from "@/db/queries/context";
import { messages } from "@/lib/messages";
import { createBuilder } from "../support/factories";
import { call } from "../support/http";
import { createSpaceApp, page, say } from "../support/space";

// U+0000 (and a lone UTF-16 surrogate) in any string a request carries: PostgreSQL cannot store
// it, and it used to reach the database and answer 500. Every request schema's strings are
// storableString() (lib/storable-text.ts): 400 INVALID_INPUT, the issue naming the field with its
// message. tests/integration/api-fuzz.test.ts walks every operation; these are the fields the
// issue names, each called with an otherwise valid request.

type Issue = { path: string; message: string };
type Refusal = { error?: { code: string; issues?: Issue[] } };
type Handler = Parameters<typeof call>[0];

const BROKEN = ["a\u0000b", "a\ud800b", "\udc00"];

async function expectRefused(
  handler: Handler,
  o: { method: string; path: string; params?: Record<string, string>; body?: unknown; token: string },
  field: string,
  message: string = messages.textNotStorable,
) {
  const res = await call<Refusal>(handler, o);
  expect(res.status, `${o.method} ${o.path} ${field}`).toBe(400);
  expect(res.json.error?.code).toBe("INVALID_INPUT");
  expect(res.json.error?.issues).toContainEqual({ path: field, message });
}

const builder = await createBuilder({ plan: "agency" });
const owner = builder.account.accountId;
const token = builder.token;

describe("a NUL or a lone surrogate in a request is 400 with the field's message, never a 500", () => {
  it.each(BROKEN)("app header, new and saved (%j)", async (bad) => {
    await expectRefused(
      appsRoute.POST,
      {
        method: "POST",
        path: "/api/apps",
        token,
        body: { appId: crypto.randomUUID(), appType: "tool", app: { header: bad, appBuilderVersion: 4 } },
      },
      "app.header",
    );
    const app = await insertApp({ ownerAccountId: owner, header: "Saved" });
    await expectRefused(
      appRoute.PATCH,
      {
        method: "PATCH",
        path: `/api/apps/${app.id}`,
        params: { appId: app.id },
        token,
        body: { baseRevision: app.revision, app: { header: bad, gptPrompt: bad } },
      },
      "app.header",
    );
  });

  it.each(BROKEN)("tool title, new and saved, and the app's settings (%j)", async (bad) => {
    const app = await insertApp({ ownerAccountId: owner, type: "generated", header: "Generated" });
    const params = { appId: app.id };
    await expectRefused(
      toolsRoute.POST,
      {
        method: "POST",
        path: `/api/apps/${app.id}/tools`,
        params,
        token,
        body: { title: bad, path: "a-tool" },
      },
      "title",
    );
    const tool = await insertTool({ appId: app.id, title: "T", path: "t", position: 0, content: {} });
    await expectRefused(
      toolRoute.PATCH,
      {
        method: "PATCH",
        path: `/api/apps/${app.id}/tools/${tool.id}`,
        params: { ...params, toolId: tool.id },
        token,
        body: { baseRevision: tool.revision, tool: { title: bad } },
      },
      "tool.title",
    );
    await expectRefused(
      settingsRoute.POST,
      {
        method: "POST",
        path: `/api/apps/${app.id}/settings`,
        params,
        token,
        body: { baseRevision: 0, appSettings: { templateDescription: bad } },
      },
      "appSettings.templateDescription",
    );
  });

  it.each(BROKEN)("a data source's name (%j)", async (bad) => {
    const app = await insertApp({ ownerAccountId: owner, header: "With a source" });
    const item = await insertContextItem({
      appId: app.id,
      name: "Notes",
      type: "txt",
      source: "local files",
      status: "synced",
      size: 4,
      content: "text",
    });
    await expectRefused(
      contextItemRoute.PATCH,
      {
        method: "PATCH",
        path: `/api/context/${item.id}`,
        params: { id: item.id },
        token,
        body: { name: bad },
      },
      "name",
    );
  });

  it.each(BROKEN)("a run's input, its value and its field name (%j)", async (bad) => {
    const app = await insertApp({ ownerAccountId: owner, header: "Runnable", status: "active" });
    const run = (inputs: Record<string, unknown>) => ({
      method: "POST",
      path: `/api/apps/${app.id}/run`,
      params: { appId: app.id },
      token,
      body: { inputs },
    });
    await expectRefused(runRoute.POST, run({ input: bad }), "inputs.input");
    // A refused record key is zod's own "invalid key" issue.
    const key = await call<Refusal>(runRoute.POST, run({ [`in${bad}put`]: "x" }));
    expect(key.status).toBe(400);
    expect(key.json.error?.issues?.[0]?.path).toBe(`inputs.in${bad}put`);
  });

  it.each(BROKEN)("a space app's chat message and file paths (%j)", async (bad) => {
    const app = await createSpaceApp(owner);
    const turn = await say(app, owner, { user: "Home", answer: "Done", changes: [page("Home", "Hi")] });
    const params = { appId: app.id };
    await expectRefused(
      chatRoute.POST,
      { method: "POST", path: `/api/apps/${app.id}/chat`, params, token, body: { text: bad } },
      "text",
    );
    // A query's broken escapes decode to U+FFFD: only a NUL (%00) reaches the schema from a URL.
    const query = "path=pages%2FHo%00me.jsx";
    await expectRefused(
      fileHistoryRoute.GET,
      { method: "GET", path: `/api/apps/${app.id}/files/history?${query}`, params, token },
      "path",
    );
    await expectRefused(
      versionFileRoute.GET,
      {
        method: "GET",
        path: `/api/apps/${app.id}/versions/${turn.versionId}/file?${query}`,
        params: { ...params, versionId: turn.versionId! },
        token,
      },
      "path",
    );
  });
});
