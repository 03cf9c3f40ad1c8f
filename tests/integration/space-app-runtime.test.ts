import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import * as statusRoute from "@/app/api/apps/[appId]/status/route";
import * as documentRoute from "@/app/api/apps/[appId]/versions/[versionId]/preview/document/route";
import * as previewRoute from "@/app/api/apps/[appId]/versions/[versionId]/preview/route";
import type { App } from "@/db/schema";
import { appOrigin } from "@/lib/env";
import { messages } from "@/lib/messages";
import { buildPreview } from "@/lib/space/preview/build";
import { APP_CLIENT_SOURCE } from "@/lib/space/preview/client-source";
import { CONFIG_GLOBAL } from "@/lib/space/preview/runtime-source";
import { publishedDocumentLink } from "@/lib/space/preview/service";
import type { PreviewAnswer } from "@/lib/space/preview/types";
import { createBuilder } from "../support/factories";
import { call } from "../support/http";
import { createSpaceApp, page, say } from "../support/space";

// What a space app's own code runs with: the data client "@app/client" bundled into its build,
// the document telling it where the data API is (and connecting nowhere else), the published
// app's document link, and publishing building the app once.

type Builder = Awaited<ReturnType<typeof createBuilder>>;

const openPreview = (who: Builder, app: App, versionId: string) =>
  call<PreviewAnswer>(previewRoute.GET, {
    method: "GET",
    path: `/api/apps/${app.id}/versions/${versionId}/preview`,
    params: { appId: app.id, versionId },
    token: who.token,
  });

async function openDocument(url: string, params: { appId: string; versionId: string }) {
  const { NextRequest } = await import("next/server");
  const req = new NextRequest(new URL(url, "http://localhost:3000"), { method: "GET" });
  const res = await documentRoute.GET(req, { params: Promise.resolve(params) });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** The config global the document sets before the app's bundle runs. */
function configOf(html: string): { runtime: unknown; text: Record<string, string> } {
  const m = new RegExp(`globalThis\\.${CONFIG_GLOBAL} = (\\{.*?\\});</script>`).exec(html);
  return JSON.parse(m![1]!);
}

const cspOf = (headers: Headers) =>
  headers
    .get("content-security-policy")!
    .split(";")
    .map((d) => d.trim());

const TASKS_PAGE = (marker: string) => ({
  type: "add_file" as const,
  path: "pages/Tasks.jsx",
  content: [
    'import { useEffect, useState } from "react";',
    'import { entities, auth, AppClientError } from "@app/client";',
    "export default function Tasks() {",
    "  const [tasks, setTasks] = useState([]);",
    "  useEffect(() => { entities.Task.list({ limit: 20 }).then(setTasks, (e) => e instanceof AppClientError && setTasks([])); }, []);",
    `  return <main><h1>${marker}</h1><button onClick={() => auth.signIn()}>in</button>{tasks.length}</main>;`,
    "}",
  ].join("\n"),
});

async function spaceApp(builder: Builder, marker = crypto.randomUUID()) {
  const app = await createSpaceApp(builder.account.accountId, "Tasks");
  const turn = await say(app, builder.account.accountId, {
    user: "A task list",
    answer: "Done",
    changes: [page("Home", marker), TASKS_PAGE(marker)],
  });
  return { app, versionId: turn.versionId! };
}

describe("the data client in a build", () => {
  it('a version importing "@app/client" is bundled with it, from our own source', async () => {
    const builder = await createBuilder();
    const { app, versionId } = await spaceApp(builder);
    const res = await openPreview(builder, app, versionId);
    expect(res.status).toBe(200);
    expect(res.json.build).toEqual({ ok: true, cached: false, issues: [] });
    const doc = await openDocument(res.json.url, { appId: app.id, versionId });
    expect(doc.status).toBe(200);
    // The client's code is in the bundle: its token request and its error class.
    expect(doc.text).toContain("space-runtime:token-request");
    expect(doc.text).toContain("AppClientError");
    expect(doc.text).toContain("/api/apps/");
    // No import is left for run time: the specifier was resolved by the build.
    expect(/from\s*["']@app\/client["']/.test(doc.text)).toBe(false);
  });

  it("a build of only the client resolves it, and its text is part of the build", async () => {
    const build = await buildPreview(
      new Map([
        [
          "pages/Home.jsx",
          'import * as client from "@app/client";\nexport default function Home() { return <p>{Object.keys(client).join()}</p>; }',
        ],
      ]),
    );
    expect(build.ok).toBe(true);
    if (!build.ok) return;
    expect(build.js).toContain("space-runtime:token");
    expect(APP_CLIENT_SOURCE).toContain("export class AppClientError");
  });
});

describe("the document of a space app", () => {
  it("tells the client where the data API is, and may connect to it alone (the editor's preview)", async () => {
    const builder = await createBuilder();
    const { app, versionId } = await spaceApp(builder);
    const { url } = (await openPreview(builder, app, versionId)).json;
    const doc = await openDocument(url, { appId: app.id, versionId });
    const config = configOf(doc.text);
    expect(config.runtime).toEqual({ apiBase: appOrigin(), appId: app.id, mode: "preview" });
    expect(config.text.clientTokenTimeout).toBe(messages.clientTokenTimeout);
    const csp = cspOf(doc.headers);
    expect(csp).toContain(`connect-src ${appOrigin()}`);
    expect(csp.filter((d) => d.startsWith("connect-src"))).toHaveLength(1);
    // Everything else as before: sandboxed, framed only by us.
    expect(csp[0]).toBe("sandbox allow-scripts allow-forms");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`frame-ancestors 'self' ${appOrigin()}`);
    expect(csp).toContain("form-action 'none'");
  });

  it("the published app's link opens the current version as the published app", async () => {
    const builder = await createBuilder();
    const { app, versionId } = await spaceApp(builder);
    const link = await publishedDocumentLink(app.id);
    expect(link?.versionId).toBe(versionId);
    // A visitor's page stays open longer than an editor's preview link lives.
    expect(link!.expiresAt.getTime() - Date.now()).toBeGreaterThan(30 * 60_000);
    expect(link!.url).toMatch(
      new RegExp(`^/api/apps/${app.id}/versions/${versionId}/preview/document\\?token=`),
    );
    const doc = await openDocument(link!.url, { appId: app.id, versionId });
    expect(doc.status).toBe(200);
    expect(configOf(doc.text).runtime).toEqual({ apiBase: appOrigin(), appId: app.id, mode: "published" });
    expect(doc.text).toContain("<title>Tasks</title>");
    const csp = cspOf(doc.headers);
    expect(csp).toContain(`connect-src ${appOrigin()}`);
    // A published app's page may be framed by its builder's site, and the app inside it with it.
    expect(csp).toContain(`frame-ancestors 'self' ${appOrigin()} https:`);
    expect(csp[0]).toBe("sandbox allow-scripts allow-forms");

    // The link is for this app and version alone.
    const other = await spaceApp(builder);
    const foreign = await openDocument(link!.url, { appId: other.app.id, versionId: other.versionId });
    expect(foreign.status).toBe(403);

    // An app without a version has no link.
    const empty = await createSpaceApp(builder.account.accountId, "Empty");
    expect(await publishedDocumentLink(empty.id)).toBeNull();
  });
});

describe("publishing a space app", () => {
  const publish = (b: Builder, appId: string) =>
    call<{ status: string }>(statusRoute.POST, {
      path: `/api/apps/${appId}/status`,
      params: { appId },
      token: b.token,
      body: { status: "active" },
    });

  it("builds its current version once, so its first visitor gets the cached build", async () => {
    const builder = await createBuilder();
    const { app, versionId } = await spaceApp(builder);
    const res = await publish(builder, app.id);
    expect(res.status).toBe(200);
    expect(res.json.status).toBe("active");
    expect((await openPreview(builder, app, versionId)).json.build.cached).toBe(true);
  });

  it("still publishes when the version does not build (its errors show when it is opened)", async () => {
    const builder = await createBuilder();
    const app = await createSpaceApp(builder.account.accountId, "Broken");
    const turn = await say(app, builder.account.accountId, {
      user: "Break it",
      answer: "Done",
      changes: [
        {
          type: "add_file",
          path: "pages/Home.jsx",
          content: `export default function Home() { return <div>{</div>; } // ${crypto.randomUUID()}`,
        },
      ],
    });
    const res = await publish(builder, app.id);
    expect(res.status).toBe(200);
    expect(res.json.status).toBe("active");
    const preview = await openPreview(builder, app, turn.versionId!);
    expect(preview.json.build).toMatchObject({ ok: false, cached: true });
  });

  it("an app without a version publishes as before", async () => {
    const builder = await createBuilder();
    const app = await createSpaceApp(builder.account.accountId, "Empty");
    expect((await publish(builder, app.id)).status).toBe(200);
  });
});
