import * as esbuild from "esbuild";
import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import * as documentRoute from "@/app/api/apps/[appId]/versions/[versionId]/preview/document/route";
import * as previewRoute from "@/app/api/apps/[appId]/versions/[versionId]/preview/route";
import type { App } from "@/db/schema";
import { messages } from "@/lib/messages";
import { formatMegabytes } from "@/lib/plans/features";
import { buildPreview } from "@/lib/space/preview/build";
import { signPreviewToken } from "@/lib/space/preview/token";
import type { PreviewAnswer, PreviewIssue } from "@/lib/space/preview/types";
import { applyFileChanges } from "@/lib/space/versions";
import { fillTemplate } from "@/lib/text";
import { cookieFor, createBuilder, createEndUser, createPublishedApp } from "../support/factories";
import { call } from "../support/http";
import { createSpaceApp, page, say } from "../support/space";

// The preview of a space app version: a version's files bundled by esbuild from
// memory, imports held to the app's files and React, build errors as app errors, a cache per set
// of files, and a document opened by a signed link alone, sandboxed, with no cookie read or set.

type Builder = Awaited<ReturnType<typeof createBuilder>>;

const openPreview = (who: { token: string }, app: App, versionId: string) =>
  call<PreviewAnswer & { error?: { code: string; message: string } }>(previewRoute.GET, {
    method: "GET",
    path: `/api/apps/${app.id}/versions/${versionId}/preview`,
    params: { appId: app.id, versionId },
    token: who.token,
  });

/** GET of the document, as a browser frame would: the URL, and whatever credentials it carries. */
async function openDocument(url: string, params: { appId: string; versionId: string }, cookie?: string) {
  const headers = new Headers(cookie ? { cookie } : {});
  const { NextRequest } = await import("next/server");
  const req = new NextRequest(new URL(url, "http://localhost:3000"), { method: "GET", headers });
  const res = await documentRoute.GET(req, { params: Promise.resolve(params) });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

async function spaceWith(builder: Builder, changes: Parameters<typeof say>[2]["changes"]) {
  const app = await createSpaceApp(builder.account.accountId, "Preview App");
  const turn = await say(app, builder.account.accountId, { user: "Make it", answer: "Done", changes });
  return { app, versionId: turn.versionId! };
}

const tinyApp = [
  page("Home", "Hello preview"),
  {
    type: "add_file" as const,
    path: "components/Counter.jsx",
    content:
      'import { useState } from "react";\nexport default function Counter() {\n  const [n, setN] = useState(0);\n  return <button className="rounded bg-blue-500 px-4" onClick={() => setN(n + 1)}>{n}</button>;\n}\n',
  },
  {
    type: "add_file" as const,
    path: "pages/About.tsx",
    content:
      'import Counter from "@/components/Counter";\nimport task from "../entities/Task.json";\nexport default function About(): JSX.Element {\n  return <section><h1>{task.name}</h1><Counter /></section>;\n}\n',
  },
  {
    type: "add_file" as const,
    path: "Layout.jsx",
    content:
      "export default function Layout({ children, currentPageName }) {\n  return <div><nav>{currentPageName}</nav>{children}</div>;\n}\n",
  },
  {
    type: "add_file" as const,
    path: "globals.css",
    content: '@import "tailwindcss";\nbody { margin: 0; }\n',
  },
  { type: "add_entity" as const, name: "Task", content: '{"name":"Task","type":"object","properties":{}}' },
  // Backend code runs in Deno, never in the preview: even an import of "fs" there is no build error.
  {
    type: "add_file" as const,
    path: "functions/report.ts",
    content: 'import fs from "node:fs";\nexport default fs;\n',
  },
];

describe("building a version's preview", () => {
  it("bundles a tiny app from memory: pages, components, layout, Tailwind, entities as JSON", async () => {
    const builder = await createBuilder();
    const { app, versionId } = await spaceWith(builder, tinyApp);
    const res = await openPreview(builder, app, versionId);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.build).toEqual({ ok: true, cached: false, issues: [] });
    expect(res.json.versionId).toBe(versionId);
    expect(res.json.url).toMatch(
      new RegExp(`^/api/apps/${app.id}/versions/${versionId}/preview/document\\?token=[\\w.-]+$`),
    );
    expect(Date.parse(res.json.expiresAt) - Date.now()).toBeGreaterThan(60_000);

    const doc = await openDocument(res.json.url, { appId: app.id, versionId });
    expect(doc.status).toBe(200);
    expect(doc.headers.get("content-type")).toBe("text/html; charset=utf-8");
    // The app's code, its pages loaded lazily, React bundled in (no script from anywhere else).
    expect(doc.text).toContain('"Hello preview"');
    expect(doc.text).toContain('name:"About"');
    expect(doc.text).toContain("__spacePreviewVendor");
    expect(doc.text).not.toMatch(/<script[^>]+src=/);
    // Tailwind compiled from the classes the files use; the entity read as JSON.
    expect(doc.text).toMatch(/\.bg-blue-500\s*\{/);
    expect(doc.text).toMatch(/\.px-4\s*\{/);
    expect(doc.text).toContain('"Task"');
    expect(doc.text).not.toContain("node:fs");
  });

  it("a build error is an app error {title, details, componentName}, in the answer and the document", async () => {
    const builder = await createBuilder();
    const { app, versionId } = await spaceWith(builder, [
      page("Home", "Hi"),
      {
        type: "add_file",
        path: "components/Card.jsx",
        content: "export default function Card() {\n  return <div>{</div>;\n}\n",
      },
      {
        type: "add_file",
        path: "pages/Cards.jsx",
        content: 'import Card from "../components/Card";\nexport default Card;\n',
      },
    ]);
    const res = await openPreview(builder, app, versionId);
    expect(res.status).toBe(200);
    expect(res.json.build.ok).toBe(false);
    const [issue] = res.json.build.issues;
    expect(issue).toMatchObject({ componentName: "Card", source: "build" });
    expect(issue!.title.length).toBeGreaterThan(0);
    expect(issue!.details).toContain("components/Card.jsx:2:");
    expect(issue!.details).toContain("return <div>{</div>;");

    // The document shows the same errors, and posts them to the editor.
    const doc = await openDocument(res.json.url, { appId: app.id, versionId });
    expect(doc.status).toBe(200);
    expect(doc.text).toContain(JSON.stringify(issue!.title).slice(1, -1));
    expect(doc.text).toContain("space-preview:issues");
    expect(doc.text).not.toContain("__spacePreviewVendor = ");
  });

  it("refuses imports of node built-ins, URLs, paths out of the app and packages we do not ship", async () => {
    const source = [
      'import fs from "fs";',
      'import os from "node:os";',
      'import lib from "https://cdn.example.com/lib.js";',
      'import proto from "//cdn.example.com/lib.js";',
      'import secret from "../../../etc/passwd";',
      'import up from "@/../secret.js";',
      'import lodash from "lodash";',
      'import missing from "./Nope";',
      'const dyn = require("child_process");',
      "export default function Home() { return <main>{[fs, os, lib, proto, secret, up, lodash, missing, dyn].length}</main>; }",
    ].join("\n");
    const build = await buildPreview(new Map([["pages/Home.jsx", source]]));
    expect(build.ok).toBe(false);
    const titles = build.issues.map((i: PreviewIssue) => i.title);
    const allowed = "react, react/jsx-runtime, react-dom, react-dom/client, @app/client";
    expect(titles).toEqual([
      fillTemplate(messages.previewImportPackage, { specifier: "fs", allowed }),
      fillTemplate(messages.previewImportPackage, { specifier: "node:os", allowed }),
      fillTemplate(messages.previewImportUrl, { specifier: "https://cdn.example.com/lib.js" }),
      fillTemplate(messages.previewImportUrl, { specifier: "//cdn.example.com/lib.js" }),
      fillTemplate(messages.previewImportOutside, { specifier: "../../../etc/passwd" }),
      fillTemplate(messages.previewImportOutside, { specifier: "@/../secret.js" }),
      fillTemplate(messages.previewImportPackage, { specifier: "lodash", allowed }),
      fillTemplate(messages.previewImportMissing, { specifier: "./Nope" }),
      fillTemplate(messages.previewImportPackage, { specifier: "child_process", allowed }),
    ]);
    expect(build.issues.every((i) => i.componentName === "Home" && i.source === "build")).toBe(true);
    // A backend function is not part of the preview, even when a page names it.
    const fn = await buildPreview(
      new Map([
        [
          "pages/Home.jsx",
          'import run from "@/functions/run";\nexport default function Home() { return run; }',
        ],
        ["functions/run.js", "export default 1;"],
      ]),
    );
    expect(fn.issues.map((i) => i.title)).toEqual([
      fillTemplate(messages.previewImportMissing, { specifier: "@/functions/run" }),
    ]);
    // Tailwind may load its own stylesheets, never a file of the server.
    const css = await buildPreview(
      new Map([
        ["pages/Home.jsx", "export default function Home() { return null; }"],
        ["globals.css", '@import "tailwindcss";\n@import "../../../etc/passwd";\n'],
      ]),
    );
    expect(css.ok).toBe(false);
    expect(css.issues[0]!.title).toBe(
      fillTemplate(messages.previewImportMissing, { specifier: "../../../etc/passwd" }),
    );
  });

  it("is bounded: a build past its time limit or its size limit is refused", async () => {
    const files = new Map([["pages/Home.jsx", "export default function Home() { return <main>hi</main>; }"]]);
    const slow = await buildPreview(files, { timeoutMs: 1 });
    expect(slow).toMatchObject({ ok: false, timedOut: true });
    expect(slow.issues[0]!.title).toBe(fillTemplate(messages.previewBuildTimeout, { seconds: 0 }));
    const big = await buildPreview(files, { maxBytes: 100 });
    expect(big.ok).toBe(false);
    expect(big.issues[0]!.title).toBe(
      fillTemplate(messages.previewBundleTooLarge, { size: formatMegabytes(100) }),
    );
  });

  it("survives esbuild's process ending under a build: the build is tried again on a new one", async () => {
    const files = new Map([
      ["pages/Home.jsx", "export default function Home() { return <main>again</main>; }"],
    ]);
    const building = buildPreview(files);
    // As when the process is killed, or another user of the module in this process stops it.
    void esbuild.stop();
    expect(await building).toMatchObject({ ok: true });
    expect(await buildPreview(files)).toMatchObject({ ok: true });
  });

  it("is cached: the second request is answered from the cache, and so are equal files of another version", async () => {
    const builder = await createBuilder();
    const owner = builder.account.accountId;
    const home = `Cached ${crypto.randomUUID()}`;
    const { app, versionId: v1 } = await spaceWith(builder, [page("Home", home)]);
    const first = await openPreview(builder, app, v1);
    expect(first.json.build.cached).toBe(false);
    const started = performance.now();
    const second = await openPreview(builder, app, v1);
    const secondMs = performance.now() - started;
    expect(second.json.build).toEqual({ ok: true, cached: true, issues: [] });
    expect(secondMs).toBeLessThan(200);
    // `current` is the head version; a version with other files is built anew.
    const current = await openPreview(builder, app, "current");
    expect(current.json).toMatchObject({ versionId: v1, build: { cached: true } });
    const v2 = (await applyFileChanges(app.id, [page("Home", "Changed")], {
      kind: "edit",
      accountId: owner,
    }))!;
    expect((await openPreview(builder, app, v2.id)).json.build.cached).toBe(false);
    // Back to v1's files (as a restore does): another version, the same bundle.
    const v3 = (await applyFileChanges(app.id, [page("Home", home)], { kind: "edit", accountId: owner }))!;
    expect(v3.id).not.toBe(v1);
    expect((await openPreview(builder, app, v3.id)).json.build.cached).toBe(true);
  });

  it("answers 404 for another app's version, an app without files, and 400 for an app that is not a space app", async () => {
    const builder = await createBuilder();
    const { app } = await spaceWith(builder, [page("Home", "A")]);
    const other = await spaceWith(await createBuilder(), [page("Home", "B")]);
    const foreign = await openPreview(builder, app, other.versionId);
    expect(foreign.status).toBe(404);
    expect(foreign.json.error!.message).toBe(messages.versionNotFound);
    const empty = await createSpaceApp(builder.account.accountId, "Empty");
    const none = await openPreview(builder, empty, "current");
    expect(none.status).toBe(404);
    expect(none.json.error).toEqual({ code: "NO_VERSION", message: messages.previewNoFiles });
    const published = await createPublishedApp(builder.account.accountId, "Not space");
    expect((await openPreview(builder, published, "current")).status).toBe(400);
  });
});

describe("the preview document", () => {
  it("is sandboxed into an opaque origin, framed only by the builder, never cached as shared, with no cookie", async () => {
    const builder = await createBuilder();
    const { app, versionId } = await spaceWith(builder, [page("Home", "Sandboxed")]);
    const { url } = (await openPreview(builder, app, versionId)).json;
    const doc = await openDocument(url, { appId: app.id, versionId });
    expect(doc.status).toBe(200);
    const csp = doc.headers.get("content-security-policy")!;
    const directives = csp.split(";").map((d) => d.trim());
    expect(directives[0]).toBe("sandbox allow-scripts allow-forms");
    expect(csp).not.toContain("allow-same-origin");
    // The data client's calls go to our API and nowhere else.
    expect(directives).toContain("connect-src http://localhost:3000");
    expect(directives).toContain("default-src 'none'");
    expect(directives).toContain("frame-ancestors 'self' http://localhost:3000");
    // Scripts only with this answer's nonce: every script of the page carries it.
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)![1]!;
    const scripts = [...parseHTML(doc.text).document.querySelectorAll("script")];
    expect(scripts.length).toBe(3); // the config, React, the app
    for (const script of scripts) {
      expect(script.getAttribute("nonce")).toBe(nonce);
      expect(script.hasAttribute("src")).toBe(false);
    }
    expect(doc.headers.get("cache-control")).toMatch(/^private\b/);
    expect(doc.headers.get("referrer-policy")).toBe("no-referrer");
    expect(doc.headers.get("x-frame-options")).toBeNull();
    expect(doc.headers.get("set-cookie")).toBeNull();
    // Each answer has its own nonce.
    const again = await openDocument(url, { appId: app.id, versionId });
    expect(again.headers.get("content-security-policy")).not.toBe(csp);
  });

  it("is opened by its signed link alone: the builder's cookie neither opens it nor changes it", async () => {
    const builder = await createBuilder();
    const { app, versionId } = await spaceWith(builder, [page("Home", "Cookie-free")]);
    const { url } = (await openPreview(builder, app, versionId)).json;
    const cookie = await cookieFor(builder.user);
    const params = { appId: app.id, versionId };
    const plain = await openDocument(url, params);
    const withCookie = await openDocument(url, params, cookie);
    expect(withCookie.status).toBe(200);
    expect(withCookie.headers.get("set-cookie")).toBeNull();
    // The same page with or without the builder's cookie, but for the per-answer nonce.
    const unnonce = (s: string) => s.replace(/nonce="[^"]+"/g, 'nonce=""');
    expect(unnonce(withCookie.text)).toBe(unnonce(plain.text));
    // The cookie without a link, or with a forged one, opens nothing.
    const path = `/api/apps/${app.id}/versions/${versionId}/preview/document`;
    for (const bad of [path, `${path}?token=`, `${path}?token=${url.split("token=")[1]}x`]) {
      const res = await openDocument(bad, params, cookie);
      expect(res.status).toBe(403);
      expect(JSON.parse(res.text).error).toEqual({
        code: "PREVIEW_LINK_INVALID",
        message: messages.previewLinkInvalid,
      });
      expect(res.headers.get("content-security-policy")).toMatch(/^sandbox allow-scripts allow-forms;/);
      expect(res.headers.get("set-cookie")).toBeNull();
    }
  });

  it("a link for app A opens no version of app B, nor another version of A; an expired link opens nothing", async () => {
    const builderA = await createBuilder();
    const builderB = await createBuilder();
    const a = await spaceWith(builderA, [page("Home", "App A")]);
    const b = await spaceWith(builderB, [page("Home", "App B secret")]);
    const aTwo = (await applyFileChanges(a.app.id, [page("Home", "A two")], {
      kind: "edit",
      accountId: builderA.account.accountId,
    }))!;
    const { url } = (await openPreview(builderA, a.app, a.versionId)).json;
    const token = url.split("token=")[1]!;
    const tries = [
      { appId: b.app.id, versionId: b.versionId },
      { appId: a.app.id, versionId: b.versionId },
      { appId: b.app.id, versionId: a.versionId },
      { appId: a.app.id, versionId: aTwo.id },
    ];
    for (const p of tries) {
      const res = await openDocument(
        `/api/apps/${p.appId}/versions/${p.versionId}/preview/document?token=${token}`,
        p,
      );
      expect(res.status).toBe(403);
      expect(res.text).not.toContain("App B secret");
    }
    const expired = await signPreviewToken({ appId: a.app.id, versionId: a.versionId }, -60);
    const res = await openDocument(
      `/api/apps/${a.app.id}/versions/${a.versionId}/preview/document?token=${expired.token}`,
      { appId: a.app.id, versionId: a.versionId },
    );
    expect(res.status).toBe(403);
    expect(JSON.parse(res.text).error).toEqual({
      code: "PREVIEW_LINK_EXPIRED",
      message: messages.previewLinkExpired,
    });
  });

  it("builder B, end users and the signed-out get no link to builder A's preview", async () => {
    const builderA = await createBuilder();
    const { app, versionId } = await spaceWith(builderA, [page("Home", "Mine")]);
    const builderB = await createBuilder();
    expect((await openPreview(builderB, app, versionId)).status).toBe(404);
    const published = await createPublishedApp(builderA.account.accountId, "Published");
    const endUser = await createEndUser(published.id);
    expect((await openPreview(endUser, app, versionId)).status).toBe(403);
    const anonymous = await call(previewRoute.GET, {
      method: "GET",
      path: `/api/apps/${app.id}/versions/${versionId}/preview`,
      params: { appId: app.id, versionId },
    });
    expect(anonymous.status).toBe(401);
    const admin = await createBuilder({ isAdmin: true });
    expect((await openPreview(admin, app, versionId)).status).toBe(200);
  });
});
