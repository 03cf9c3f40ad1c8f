import { expect, type Frame, type Page, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { PREVIEW_SANDBOX } from "../../lib/space/preview/types";
import { createApp, createBuilder, type SeededUser } from "./support/db";
import { seedVersion } from "./support/space";
import { logInAsBuilder } from "./support/ui";

// The preview of a space app version in Chromium: the app runs in a frame of the
// builder's page, its errors reach the page by postMessage, and the frame - a document sandboxed
// into an opaque origin, by its CSP and by the frame's sandbox - can neither read the builder's
// cookies nor call our API as the builder.

const APP_FILES = {
  "pages/Home.jsx": `import Counter from "@/components/Counter";
export default function Home() {
  return (
    <main className="p-6">
      <h1 className="text-2xl font-bold">Hello from the preview</h1>
      <Counter />
      <a href="/Broken">Open the broken page</a>
    </main>
  );
}
`,
  "pages/Broken.jsx": `export default function Broken() {
  const items = null;
  return <ul>{items.map((i) => <li key={i}>{i}</li>)}</ul>;
}
`,
  "components/Counter.jsx": `import { useState } from "react";
export default function Counter() {
  const [n, setN] = useState(0);
  return <button type="button" className="rounded bg-blue-600 px-3 py-1 text-white" onClick={() => setN(n + 1)}>Clicked {n}</button>;
}
`,
  "Layout.jsx": `export default function Layout({ children, currentPageName }) {
  return <div><nav aria-label="App">Page: {currentPageName}</nav>{children}</div>;
}
`,
};

type Posted = { type: string; issues?: { title: string; componentName: string | null; source: string }[] };

/** Frames a version's preview in the builder's page, as components/space/version-preview.tsx does. */
async function framePreview(
  page: Page,
  appId: string,
  versionId: string,
): Promise<{ frame: Frame; build: unknown }> {
  const answer = await page.evaluate(async (path) => {
    const res = await fetch(path, { credentials: "same-origin" });
    return { status: res.status, body: await res.json() };
  }, `/api/apps/${appId}/versions/${versionId}/preview`);
  expect(answer.status).toBe(200);
  await page.evaluate(
    ({ url, sandbox }) => {
      const w = window as unknown as { posted: unknown[] };
      w.posted = [];
      const iframe = document.createElement("iframe");
      iframe.id = "preview";
      iframe.setAttribute("sandbox", sandbox);
      // Above the page (the builder shell would cover it), as the editor's panel shows it.
      iframe.style.cssText =
        "position:fixed;top:0;left:0;z-index:2147483647;width:800px;height:600px;border:0";
      // Like the component: messages of this frame only, known by their window.
      window.addEventListener("message", (event) => {
        if (event.source === iframe.contentWindow) w.posted.push(event.data);
      });
      iframe.src = url;
      document.body.appendChild(iframe);
    },
    { url: answer.body.url as string, sandbox: PREVIEW_SANDBOX },
  );
  await expect.poll(() => page.frames().find((f) => f.url().includes("/preview/document"))).toBeTruthy();
  return {
    frame: page.frames().find((f) => f.url().includes("/preview/document"))!,
    build: answer.body.build,
  };
}

const posted = (page: Page) => page.evaluate(() => (window as unknown as { posted: Posted[] }).posted);

async function builderWithSpaceApp(files: Record<string, string>) {
  const builder: SeededUser = await createBuilder();
  const { appId } = await createApp(builder, { type: "space", header: "Preview E2E" });
  const versionId = await seedVersion(appId, builder.accountId!, files);
  return { builder, appId, versionId };
}

test("a version's preview runs in a sandboxed frame and reports its runtime errors to the builder's page", async ({
  page,
}) => {
  const { builder, appId, versionId } = await builderWithSpaceApp(APP_FILES);
  await logInAsBuilder(page, builder);
  const { build } = await framePreview(page, appId, versionId);
  expect(build).toEqual({ ok: true, cached: false, issues: [] });
  const app = page.frameLocator("#preview");

  await expect(app.getByRole("heading", { name: "Hello from the preview" })).toBeVisible();
  await expect(app.getByRole("navigation", { name: "App" })).toHaveText("Page: Home");
  // React runs: state updates; Tailwind's classes are compiled in.
  await app.getByRole("button", { name: "Clicked 0" }).click();
  await expect(app.getByRole("button", { name: "Clicked 1" })).toBeVisible();
  await expect(app.getByRole("button", { name: "Clicked 1" })).toHaveCSS("color", "rgb(255, 255, 255)");
  await expect
    .poll(async () => (await posted(page)).some((m) => m.type === "space-preview:ready"))
    .toBe(true);

  // A link written for a server stays in the preview; the page that throws is an app error.
  await app.getByRole("link", { name: "Open the broken page" }).click();
  await expect(app.getByRole("alert")).toContainText(messages.previewRuntimeError);
  await expect(app.getByRole("navigation", { name: "App" })).toHaveText("Page: Broken");
  await expect
    .poll(async () => {
      const last = (await posted(page)).filter((m) => m.type === "space-preview:issues").at(-1);
      return last?.issues?.map((i) => ({ componentName: i.componentName, source: i.source }));
    })
    .toEqual([{ componentName: "Broken", source: "runtime" }]);
});

test("a build error shows in the frame and reaches the builder's page as an app error", async ({ page }) => {
  const { builder, appId, versionId } = await builderWithSpaceApp({
    "pages/Home.jsx":
      'import Card from "@/components/Card";\nexport default function Home() { return <Card />; }\n',
    "components/Card.jsx": "export default function Card() {\n  return <div>{</div>;\n}\n",
  });
  await logInAsBuilder(page, builder);
  const { build } = await framePreview(page, appId, versionId);
  expect(build).toMatchObject({ ok: false, issues: [{ componentName: "Card", source: "build" }] });
  await expect(page.frameLocator("#preview").getByRole("alert")).toContainText(messages.previewBuildFailed);
  await expect
    .poll(
      async () =>
        (await posted(page)).find((m) => m.type === "space-preview:issues")?.issues?.[0]?.componentName,
    )
    .toBe("Card");
});

test("the preview can neither read the builder's cookies nor call the API as the builder", async ({
  page,
  context,
}) => {
  const { builder, appId, versionId } = await builderWithSpaceApp(APP_FILES);
  await logInAsBuilder(page, builder);
  // A cookie the builder's own scripts can read, beside the HttpOnly session cookie.
  await page.evaluate(() => {
    // biome-ignore lint/suspicious/noDocumentCookie: the probe is a cookie page scripts can read
    document.cookie = "builder_probe=readable-by-the-builder; path=/";
  });
  expect(await page.evaluate(() => document.cookie)).toContain("builder_probe=");
  // The builder's page itself is signed in: the API answers it.
  const own = await page.evaluate(async () => (await fetch("/api/live_api/account/current")).status);
  expect(own).toBe(200);

  const { frame } = await framePreview(page, appId, versionId);
  await expect(
    page.frameLocator("#preview").getByRole("heading", { name: "Hello from the preview" }),
  ).toBeVisible();

  const probe = () =>
    frame.evaluate(async () => {
      const attempt = async (fn: () => unknown) => {
        try {
          return `allowed: ${String(await fn())}`;
        } catch (err) {
          return `blocked: ${(err as Error).name}`;
        }
      };
      return {
        origin: window.origin,
        cookie: await attempt(() => document.cookie),
        parentCookie: await attempt(() => window.parent.document.cookie),
        storage: await attempt(() => window.localStorage.length),
        api: await attempt(async () => {
          const res = await fetch("/api/live_api/account/current", { credentials: "include" });
          return `${res.status} ${await res.text()}`;
        }),
        absoluteApi: await attempt(async () => {
          const res = await fetch(
            `${window.location.protocol}//${window.location.host}/api/live_api/account/current`,
            {
              credentials: "include",
            },
          );
          return `${res.status} ${await res.text()}`;
        }),
      };
    });
  const seen = await probe();
  expect(seen.origin).toBe("null");
  expect(seen.cookie).toBe("blocked: SecurityError");
  expect(seen.parentCookie).toBe("blocked: SecurityError");
  expect(seen.storage).toBe("blocked: SecurityError");
  expect(seen.api).toBe("blocked: TypeError");
  expect(seen.absoluteApi).toBe("blocked: TypeError");

  // Opened on its own, without the frame's sandbox, the document is still sandboxed by its CSP.
  const { url } = await page.evaluate(
    async (path) => (await fetch(path)).json() as Promise<{ url: string }>,
    `/api/apps/${appId}/versions/${versionId}/preview`,
  );
  const alone = await context.newPage();
  await alone.goto(url);
  await expect(alone.getByRole("heading", { name: "Hello from the preview" })).toBeVisible();
  const direct = await alone.evaluate(() => {
    try {
      return { origin: window.origin, cookie: document.cookie };
    } catch (err) {
      return { origin: window.origin, cookie: `blocked: ${(err as Error).name}` };
    }
  });
  expect(direct).toEqual({ origin: "null", cookie: "blocked: SecurityError" });
  await alone.close();
});
