import crypto from "node:crypto";
import { type Browser, expect, type FrameLocator, type Page, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { EditorPage } from "./pages/editor-page";
import { LoginPage } from "./pages/login-page";
import { SpaceChatPage } from "./pages/space-chat-page";
import {
  expectNoA11yViolations,
  expectNoA11yViolationsInBothThemes,
  SPACE_PREVIEW_FRAME,
} from "./support/axe";
import { createApp, createBuilder, createEndUser, type SeededUser } from "./support/db";
import { logInAsBuilder } from "./support/ui";

// The whole path of a space app's data: the chat (the e2e run's demo model) builds the task app,
// whose page reads and writes its tasks through @app/client; the builder publishes it; end users
// sign in at /app/{id} and keep their tasks, under the access the builder picks in the Database
// panel (enforced by the server); the builder sees every row in the panel.

const FRAME = '[data-testid="space-app-frame"]';
const tag = () => crypto.randomUUID().slice(0, 6);

/** An end user of the app, signed in through the app's password form, on the app's page. */
async function endUser(browser: Browser, appId: string, viewport = { width: 1280, height: 800 }) {
  const user: SeededUser = await createEndUser(appId);
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(`/app/${appId}/login?method=password`);
  await new LoginPage(page).logIn(user.email, user.password);
  await expect(page).toHaveURL(new RegExp(`/app/${appId}$`));
  const app = page.frameLocator(FRAME);
  await expect(app.getByText(`Signed in as ${user.email}`)).toBeVisible({ timeout: 30_000 });
  return { user, page, app };
}

const taskList = (app: FrameLocator) => app.getByRole("region", { name: "Tasks" });

async function addTask(app: FrameLocator, title: string) {
  await app.getByLabel("New task").fill(title);
  await app.getByRole("button", { name: "Add task" }).click();
  await expect(taskList(app).getByText(title, { exact: true })).toBeVisible();
}

async function openDatabase(page: Page) {
  await page
    .getByRole("navigation", { name: messages.editorPanels })
    .getByRole("button", { name: messages.editorMenuDatabase })
    .click();
  await expect(page.getByRole("heading", { level: 2, name: messages.editorDatabaseTitle })).toBeFocused();
}

test("the chat builds the task app, the builder publishes it, and end users keep their tasks under the access the builder picks", async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, { type: "space", header: `Task board ${tag()}` });
  await logInAsBuilder(page, builder);
  const chat = new SpaceChatPage(page, appId);
  await chat.goto();
  await expect(page.getByRole("heading", { name: messages.chatEmptyTitle })).toBeVisible({ timeout: 20_000 });

  // The chat writes the task app; its preview runs as the builder (the app's admin).
  const built = await chat.newAnswer(() => chat.ask("Build a task board"));
  await expect(built).toHaveAttribute("data-status", "complete", { timeout: 30_000 });
  await expect(chat.preview.getByRole("heading", { name: "Task board" })).toBeVisible({ timeout: 45_000 });
  await expect(chat.preview.getByText("Signed in as")).toBeVisible();
  await expect(chat.preview.getByText("No tasks yet")).toBeVisible();

  await new EditorPage(page, appId).publishApp();

  // End user A signs in at /app/{id} and adds tasks.
  const a = await endUser(browser, appId);
  await expect(a.app.getByText("No tasks yet")).toBeVisible();
  await addTask(a.app, "Water the plants");
  await addTask(a.app, "Pay the rent");
  // Newest first, and still there after a reload (stored, not only drawn).
  await a.page.reload();
  await expect(taskList(a.app).getByRole("listitem")).toHaveText([/Pay the rent/, /Water the plants/]);
  // Checked once the server has saved it (the app draws the record the server answers).
  await a.app.getByRole("checkbox", { name: "Water the plants" }).click();
  await expect(a.app.getByRole("checkbox", { name: "Water the plants" })).toBeChecked();

  // End user B, under "Creator only" (the app's default): none of A's tasks.
  const b = await endUser(browser, appId, { width: 375, height: 800 });
  await expect(b.app.getByText("No tasks yet")).toBeVisible();
  await expect(b.app.getByText("Water the plants")).toHaveCount(0);
  // The published app at 375 px: nothing wider than the screen; our page passes axe in both themes.
  expect(
    await b.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  await expectNoA11yViolationsInBothThemes(b.page, "published task app at 375 px", undefined, FRAME);
  // The demo task app itself, inside its frame (the one app we write; builders' apps are theirs),
  // as its own document: its main landmark is the frame's, not a second one of our page.
  await expectNoA11yViolations(b.page, "the demo task app in its frame", FRAME);
  await b.page.screenshot({ path: test.info().outputPath("task-app-375-b.png") });

  // The builder picks "Every logged in user read, Creator write" in the Database panel.
  await openDatabase(page);
  await page.getByRole("button", { name: messages.databaseChangeAccess }).click();
  await page.getByRole("menuitem", { name: messages.accessPresetUsersReadCreatorWrite }).click();
  const applied = chat.answers.filter({ hasText: "Task: read Every logged in user, write Creator." });
  await expect(applied).toHaveAttribute("data-status", "complete", { timeout: 30_000 });

  // B now sees A's tasks and cannot change them: the server refuses, the app shows why.
  await b.page.reload();
  await expect(taskList(b.app).getByRole("listitem")).toHaveText([/Pay the rent/, /Water the plants/]);
  await b.app.getByRole("button", { name: "Delete Pay the rent" }).click();
  await expect(b.app.getByRole("alert")).not.toBeEmpty();
  await b.page.reload();
  await expect(taskList(b.app).getByText("Pay the rent", { exact: true })).toBeVisible();
  // B's own task is B's to change.
  await addTask(b.app, "Call the bank");
  await b.page.screenshot({ path: test.info().outputPath("task-app-375-b-shared.png") });

  // The builder sees every row in the Database panel.
  await openDatabase(page);
  const records = page.getByRole("grid", { name: `${messages.databaseRecords}: Task` });
  await expect(records.getByRole("row")).toHaveCount(4);
  for (const title of ["Water the plants", "Pay the rent", "Call the bank"]) {
    await expect(records.getByRole("row").filter({ hasText: title })).toHaveCount(1);
  }
  await expectNoA11yViolationsInBothThemes(
    page,
    "database panel with end users' records",
    undefined,
    SPACE_PREVIEW_FRAME,
  );

  // A signs out from the app's own button: the page goes through the app's logout and back.
  await a.app.getByRole("button", { name: "Sign out" }).click();
  await expect(a.page).toHaveURL(new RegExp(`/app/${appId}$`));
  await expect(a.page.getByRole("link", { name: messages.publicSignIn })).toBeVisible();
  await expect(a.app.getByText("You are not signed in.")).toBeVisible();
  await a.page.context().close();
  await b.page.context().close();
});
