import { type Browser, expect, type Page, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { PREVIEW_SANDBOX } from "../../lib/space/preview/types";
import { EditorPage } from "./pages/editor-page";
import { PublicAppPage } from "./pages/public-app-page";
import { expectNoA11yViolationsInBothThemes } from "./support/axe";
import { createApp, createBuilder } from "./support/db";
import { seedVersion } from "./support/space";
import { logInAsBuilder, toast } from "./support/ui";

// A space app at /app/{appId}: its current version runs full-height in the same sandboxed frame
// as the editor's preview, under a slim bar with the app's name and the end user's sign-in. The
// app's data client (@app/client) asks the page around it for a token (the page asks our API
// with its own session), and its auth.signIn() takes the visitor to the app's sign-in page; in
// the editor's preview the same call says the preview runs as the builder.

const FRAME = '[data-testid="space-app-frame"]';

const TASK_APP = {
  "pages/Home.jsx": `import { useEffect, useState } from "react";
import { auth, entities, AppClientError } from "@app/client";
export default function Home() {
  const [status, setStatus] = useState("Loading tasks");
  useEffect(() => {
    entities.Task.list({ limit: 10 }).then(
      (tasks) => setStatus(tasks.length + " tasks"),
      (err) => setStatus(err instanceof AppClientError ? "Could not load tasks (" + err.status + ")" : "Unexpected error"),
    );
  }, []);
  return (
    <main className="mx-auto max-w-xl p-6">
      <h1 className="text-2xl font-bold">Task board</h1>
      <p data-testid="task-status">{status}</p>
      <button type="button" className="mt-4 rounded bg-blue-700 px-3 py-2 text-white" onClick={() => auth.signIn()}>
        Sign in to add tasks
      </button>
    </main>
  );
}
`,
  "entities/Task.json": JSON.stringify({
    name: "Task",
    type: "object",
    properties: { title: { type: "string" }, done: { type: "boolean" } },
  }),
};

async function spaceApp(status: "active" | "draft", files: Record<string, string> | null = TASK_APP) {
  const builder = await createBuilder();
  const { appId, header } = await createApp(builder, { type: "space", status, header: "Team tasks" });
  if (files) await seedVersion(appId, builder.accountId!, files, { current: true });
  return { builder, appId, header };
}

async function visitor(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

const tokenRequest = (page: Page, appId: string) =>
  page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith(`/api/apps/${appId}/runtime/token`));

test("a published space app runs its current version full-height for visitors, who can go to its sign-in", async ({
  browser,
}) => {
  const { appId, header } = await spaceApp("active");
  const page = await visitor(browser);
  const publicPage = new PublicAppPage(page, appId);
  // The app's first data call asks this page for a token, which asks our API with its own session.
  const asked = tokenRequest(page, appId);
  await publicPage.goto();
  await expect(publicPage.heading).toHaveText(header);
  await expect(page.getByRole("link", { name: messages.publicSignIn })).toBeVisible();
  await expect(publicPage.draftBanner).toHaveCount(0);
  const frameEl = page.locator(FRAME);
  await expect(frameEl).toHaveAttribute("sandbox", PREVIEW_SANDBOX);
  await expect(frameEl).toHaveAttribute("title", header);
  const app = page.frameLocator(FRAME);
  await expect(app.getByRole("heading", { name: "Task board" })).toBeVisible();
  await asked;
  // The data call ends one way or the other (the answer depends on the server's access rules).
  await expect(app.getByTestId("task-status")).not.toHaveText("Loading tasks");

  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    // The frame fills the page under the bar: no page scroll, the app scrolls inside.
    const box = (await frameEl.boundingBox())!;
    expect(Math.round(box.width)).toBe(width);
    expect(Math.round(box.y + box.height)).toBe(800);
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(800);
    await expectNoA11yViolationsInBothThemes(page, `published space app at ${width} px`, undefined, FRAME);
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: test.info().outputPath(`published-space-${width}-${colorScheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: "light" });
  }

  // auth.signIn() in the app's code: the whole page goes to the app's sign-in, and back after.
  await app.getByRole("button", { name: "Sign in to add tasks" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/${appId}/login\\?redirectTo=%2Fapp%2F${appId}$`));
  await page.context().close();
});

test("a draft space app is shown to its builder only, with the banner; an app without a version says it is not built", async ({
  page,
  browser,
}) => {
  const { builder, appId, header } = await spaceApp("draft");
  const stranger = await visitor(browser);
  await new PublicAppPage(stranger, appId).goto();
  await expect(new PublicAppPage(stranger, appId).notFound).toBeVisible();
  await stranger.context().close();

  await logInAsBuilder(page, builder);
  const publicPage = new PublicAppPage(page, appId);
  await publicPage.goto();
  await expect(publicPage.draftBanner).toBeVisible();
  await expect(publicPage.heading).toHaveText(header);
  // End users sign in only to a published app.
  await expect(page.getByRole("link", { name: messages.publicSignIn })).toHaveCount(0);
  await expect(page.frameLocator(FRAME).getByRole("heading", { name: "Task board" })).toBeVisible();
  // The builder's draft runs as in the editor: sign-in there is the published app's.
  await page.frameLocator(FRAME).getByRole("button", { name: "Sign in to add tasks" }).click();
  await expect(toast(page, messages.runtimePreviewAuth)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/app/${appId}$`));

  const empty = await spaceApp("active", null);
  const emptyVisitor = await visitor(browser);
  await new PublicAppPage(emptyVisitor, empty.appId).goto();
  await expect(emptyVisitor.getByText(messages.publicSpaceNotAvailable)).toBeVisible();
  await expect(emptyVisitor.locator(FRAME)).toHaveCount(0);
  await emptyVisitor.context().close();
});

test("in the editor's preview the app asks the builder's page for its token, and sign-in says it runs as the builder", async ({
  page,
}) => {
  const { builder, appId } = await spaceApp("draft");
  await logInAsBuilder(page, builder);
  const asked = tokenRequest(page, appId);
  await new EditorPage(page, appId).goto();
  const preview = page.frameLocator('[data-testid="version-preview-frame"]');
  await expect(preview.getByRole("heading", { name: "Task board" })).toBeVisible({ timeout: 45_000 });
  await asked;
  await preview.getByRole("button", { name: "Sign in to add tasks" }).click();
  await expect(toast(page, messages.runtimePreviewAuth)).toBeVisible();
  expect(page.url()).toContain(`/build/app/${appId}`);
});
