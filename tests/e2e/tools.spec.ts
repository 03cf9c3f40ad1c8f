import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { getPlanCapabilities } from "../../lib/plans/capabilities";
import { fillTemplate } from "../../lib/text";
import { EditorPage } from "./pages/editor-page";
import { PublicAppPage } from "./pages/public-app-page";
import { ToolsPage } from "./pages/tools-page";
import { createApp, createBuilder, createTool, sql } from "./support/db";
import { logInAsBuilder, toast } from "./support/ui";

// The tools of a generated app: added at /build/app/{appId}/tools with the path
// rule, activated only with a header, within the plan's tools-per-app limit, and opened by
// visitors at /app/{appId}/tool/{path} (and /tool/{path}).

test.use({ viewport: { width: 1280, height: 900 } });

const suffix = () => crypto.randomUUID().slice(0, 6);
const LITE_TOOLS_PER_APP = getPlanCapabilities("lite").maxToolsPerApp;

test("add a tool with a valid path, activate it once it has a header, and visitors open it", async ({
  page,
  browser,
}) => {
  const builder = await createBuilder();
  const app = await createApp(builder, { type: "generated", status: "active", header: `Hub ${suffix()}` });
  await logInAsBuilder(page, builder);

  // The editor's menu leads to the tools.
  const editor = new EditorPage(page, app.appId);
  await editor.goto();
  await editor.menu.getByRole("link", { name: messages.editorMenuAppTools }).click();
  const tools = new ToolsPage(page, app.appId);
  await expect(tools.heading).toBeVisible();
  await expect(page.getByText(messages.toolsEmptyTitle)).toBeVisible();
  // Already there: no 'Explore tools collection' link.
  await expect(page.getByRole("link", { name: messages.exploreTools })).toHaveCount(0);

  // The path rule, as it is typed.
  await tools.addTool.click();
  await tools.title.fill("Idea generator");
  await expect(tools.path).toHaveValue("idea-generator");
  await tools.path.fill("");
  await expect(tools.dialog.getByText(messages.toolPathInvalid)).toBeVisible();
  await tools.path.fill("ideas and more!");
  await expect(tools.dialog.getByText(messages.toolPathInvalid)).toBeVisible();
  await tools.submit.click();
  await expect(tools.dialog).toBeVisible();
  await expect(tools.path).toBeFocused();

  // A tool without a title (so without a header) first.
  const path = `ideas-${suffix()}`;
  await tools.title.fill("");
  await tools.path.fill(path);
  await expect(tools.dialog.getByText(messages.toolPathInvalid)).toHaveCount(0);
  await tools.submit.click();
  await expect(page).toHaveURL(new RegExp(`/build/app/${app.appId}/tool/[0-9a-f-]{36}$`));
  await expect(page.getByRole("heading", { level: 1 }).first()).toHaveText(messages.untitledTool);
  await expect(page.getByRole("link", { name: messages.exploreTools })).toBeVisible();

  const active = page.getByRole("switch", { name: messages.toolStatusActive, exact: true });
  await active.click();
  await expect(toast(page, messages.toolNeedsHeader)).toBeVisible();
  await expect(active).not.toBeChecked();

  // The server says the same when asked from the collection's menu.
  await tools.goto();
  await tools.action(messages.untitledTool, messages.toolActivate);
  await expect(toast(page, messages.toolNeedsHeader)).toBeVisible();
  await expect(tools.row(messages.untitledTool)).toContainText(messages.toolStatusDraft);

  // With a header it can go live.
  await tools.row(messages.untitledTool).getByRole("link", { name: messages.untitledTool }).click();
  const header = page.getByLabel(messages.editorHeader, { exact: true });
  await header.fill("Idea generator");
  await page.getByLabel(messages.editorDescription, { exact: true }).fill("Ideas for a rainy day.");
  await active.click();
  await expect(toast(page, fillTemplate(messages.toolActivated, { name: "Idea generator" }))).toBeVisible();
  await expect(active).toBeChecked();
  await expect(new EditorPage(page, app.appId).indicator).toHaveText(messages.publishPublished, {
    timeout: 15_000,
  });

  // Visitors: the app lists it, its page shows it, by either address.
  const visitor = await (await browser.newContext()).newPage();
  const publicPage = new PublicAppPage(visitor, app.appId);
  await publicPage.goto();
  await visitor
    .getByRole("region", { name: messages.publicTools })
    .getByRole("link", { name: /Idea generator/ })
    .click();
  await expect(visitor).toHaveURL(new RegExp(`/app/${app.appId}/tool/${path}$`));
  await expect(publicPage.heading).toHaveText("Idea generator");
  await expect(visitor.getByText("Ideas for a rainy day.")).toBeVisible();
  await visitor.goto(`/tool/${path}`);
  await expect(publicPage.heading).toHaveText("Idea generator");

  // An unknown path says so.
  await publicPage.gotoTool("no-such-tool");
  await expect(publicPage.toolNotFound("no-such-tool")).toBeVisible();
  await visitor.goto(`/tool/no-such-tool-${suffix()}`);
  await expect(
    visitor.getByRole("heading", { name: /^Tool with path no-such-tool-\w+ not found$/ }),
  ).toBeVisible();
  await visitor.context().close();
});

test("a path another tool of the app uses is refused", async ({ page }) => {
  const builder = await createBuilder();
  const app = await createApp(builder, { type: "generated", header: `Paths ${suffix()}` });
  await createTool(app.appId, { title: "Planner", path: "planner" });
  await logInAsBuilder(page, builder);
  const tools = new ToolsPage(page, app.appId);
  await tools.goto();
  await tools.addTool.click();
  await tools.title.fill("Planner");
  // The path suggested from the title is the next free one.
  await expect(tools.path).toHaveValue("planner-2");
  await tools.path.fill("PLANNER");
  await expect(tools.dialog.getByText(messages.toolPathTaken)).toBeVisible();
  await tools.path.fill("planner-two");
  await tools.submit.click();
  await expect(page).toHaveURL(new RegExp(`/build/app/${app.appId}/tool/`));
  const [row] = await sql<{ n: string }>("SELECT count(*) AS n FROM tools WHERE app_id = $1", [app.appId]);
  expect(Number(row?.n)).toBe(2);
});

test(`lite allows ${LITE_TOOLS_PER_APP} tools per app, and says so`, async ({ page }) => {
  const builder = await createBuilder();
  const app = await createApp(builder, { type: "generated", header: `Full ${suffix()}` });
  for (let i = 1; i <= LITE_TOOLS_PER_APP; i++) {
    await createTool(app.appId, { title: `Tool ${i}`, path: `tool-${i}` });
  }
  await logInAsBuilder(page, builder);
  const tools = new ToolsPage(page, app.appId);
  await tools.goto();
  await expect(
    page.getByText(fillTemplate(messages.toolsCountOf, { n: LITE_TOOLS_PER_APP, max: LITE_TOOLS_PER_APP })),
  ).toBeVisible();
  await tools.addTool.click();
  await tools.title.fill("One more");
  await tools.submit.click();
  await expect(tools.dialog.getByRole("alert")).toHaveText(
    fillTemplate(messages.maxToolsPerApp, { n: LITE_TOOLS_PER_APP }),
  );
  // An upgrade lifts it.
  await tools.dialog.getByRole("button", { name: messages.toolsUpgrade }).click();
  await expect(page.getByRole("dialog", { name: messages.upgradeDialogTitle })).toBeVisible();
  const [row] = await sql<{ n: string }>("SELECT count(*) AS n FROM tools WHERE app_id = $1", [app.appId]);
  expect(Number(row?.n)).toBe(LITE_TOOLS_PER_APP);
});
