import crypto from "node:crypto";
import { expect, type Page, type Route, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { fillTemplate } from "../../lib/text";
import { EditorPage } from "./pages/editor-page";
import { createApp, createBuilder, readApp } from "./support/db";
import { logInAsBuilder } from "./support/ui";

// "Saving never loses work": two tabs editing one app meet a 409 and the builder
// chooses, a save that cannot reach the server is kept, said and retried, and leaving with
// unsaved changes asks first.

test.use({ viewport: { width: 1280, height: 900 } });

const suffix = () => crypto.randomUUID().slice(0, 6);

async function builderWithApp(page: Page) {
  const builder = await createBuilder();
  const app = await createApp(builder, { header: `Saving ${suffix()}` });
  await logInAsBuilder(page, builder);
  return app;
}

/** The conflict dialog's part for one changed key: their version and mine. */
function conflictPart(editor: EditorPage, label: string) {
  const part = editor.conflictDialog.getByRole("region", {
    name: fillTemplate(messages.editorConflictField, { name: label }),
  });
  return { theirs: part.getByTestId("conflict-theirs"), yours: part.getByTestId("conflict-yours") };
}

/** Fails every content save (PATCH) of this app as a dropped connection would; counts them. */
async function dropSaves(page: Page, appId: string) {
  let attempts = 0;
  const handler = (route: Route) => {
    if (route.request().method() !== "PATCH") return route.continue();
    attempts++;
    return route.abort("connectionrefused");
  };
  await page.route(`**/api/apps/${appId}`, handler);
  return {
    attempts: () => attempts,
    restore: () => page.unroute(`**/api/apps/${appId}`, handler),
  };
}

test("two tabs: the second save gets the conflict dialog, Keep my version keeps both tabs' work", async ({
  page,
  context,
}) => {
  const { appId } = await builderWithApp(page);
  const one = new EditorPage(page, appId);
  const two = new EditorPage(await context.newPage(), appId);
  await one.goto("texts");
  await two.goto("texts");

  await one.header.fill("Header from tab one");
  await one.expectSaved();

  // Tab two still edits the revision it loaded.
  await two.description.fill("Description from tab two");
  await expect(two.conflictDialog).toBeVisible({ timeout: 15_000 });
  await expect(two.conflictDialog).toContainText(messages.saveConflict);
  await expect(two.indicator).toHaveText(messages.editorNotSaved);
  const description = conflictPart(two, messages.editorDescription);
  await expect(description.theirs).toHaveText(messages.editorValueEmpty);
  await expect(description.yours).toHaveText("Description from tab two");
  // The dialog asks for a choice: Escape does not dismiss it.
  await two.page.keyboard.press("Escape");
  await expect(two.conflictDialog).toBeVisible();

  await two.conflictDialog.getByRole("button", { name: messages.editorConflictKeepMine }).click();
  await expect(two.conflictDialog).toHaveCount(0);
  await two.expectSaved();
  // Tab two now shows tab one's header too: theirs stayed, mine went on top.
  await expect(two.header).toHaveValue("Header from tab one");
  await expect(two.description).toHaveValue("Description from tab two");

  expect((await readApp(appId))?.content).toMatchObject({
    header: "Header from tab one",
    description: "Description from tab two",
  });
  const api = await page.request.get(`/api/apps/${appId}`);
  expect(api.status()).toBe(200);
  expect((await api.json()).app).toMatchObject({
    header: "Header from tab one",
    description: "Description from tab two",
  });
  await page.reload();
  await expect(one.header).toHaveValue("Header from tab one");
  await expect(one.description).toHaveValue("Description from tab two");
});

test("two tabs: Load theirs replaces my edit with the saved version, which stays untouched", async ({
  page,
  context,
}) => {
  const { appId } = await builderWithApp(page);
  const one = new EditorPage(page, appId);
  const two = new EditorPage(await context.newPage(), appId);
  await one.goto("texts");
  await two.goto("texts");

  await one.header.fill("Tab one's header");
  await one.expectSaved();
  await two.header.fill("Tab two's header");
  await expect(two.conflictDialog).toBeVisible({ timeout: 15_000 });
  const header = conflictPart(two, messages.editorHeader);
  await expect(header.theirs).toHaveText("Tab one's header");
  await expect(header.yours).toHaveText("Tab two's header");

  await two.conflictDialog.getByRole("button", { name: messages.editorConflictLoadTheirs }).click();
  await expect(two.conflictDialog).toHaveCount(0);
  await two.expectSaved();
  await expect(two.header).toHaveValue("Tab one's header");
  const saved = await readApp(appId);
  expect(saved?.header).toBe("Tab one's header");

  // Tab two goes on editing from their revision without another conflict.
  await two.description.fill("After loading theirs");
  await two.expectSaved();
  await expect(two.conflictDialog).toHaveCount(0);
  expect((await readApp(appId))?.content).toMatchObject({
    header: "Tab one's header",
    description: "After loading theirs",
  });
});

test("a save that cannot reach the server is kept, says so, and is retried until it is saved", async ({
  page,
}) => {
  const { appId, header } = await builderWithApp(page);
  const editor = new EditorPage(page, appId);
  await editor.goto("texts");

  const saves = await dropSaves(page, appId);
  await editor.header.fill("Written while the server is away");
  await expect(editor.saveError(messages.saveFailedMightLose)).toBeVisible({ timeout: 15_000 });
  await expect(editor.indicator).toHaveText(messages.editorNotSaved);
  await expect(editor.header).toHaveValue("Written while the server is away");
  // Retried on its own, still failing, still kept.
  await expect.poll(saves.attempts, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
  await expect(editor.header).toHaveValue("Written while the server is away");
  expect((await readApp(appId))?.header).toBe(header);

  // The server is back: the next retry saves it.
  await saves.restore();
  await editor.expectSaved();
  await expect(editor.saveError(messages.saveFailedMightLose)).toHaveCount(0);
  expect((await readApp(appId))?.header).toBe("Written while the server is away");
  await page.reload();
  await expect(editor.header).toHaveValue("Written while the server is away");
});

test("Try again saves a failed edit at once", async ({ page }) => {
  const { appId } = await builderWithApp(page);
  const editor = new EditorPage(page, appId);
  await editor.goto("texts");
  const saves = await dropSaves(page, appId);
  await editor.description.fill("Saved by Try again");
  const banner = editor.saveError(messages.saveFailedMightLose);
  await expect(banner).toBeVisible({ timeout: 15_000 });
  await saves.restore();
  await banner.getByRole("button", { name: messages.retry }).click();
  await editor.expectSaved();
  expect((await readApp(appId))?.content.description).toBe("Saved by Try again");
});

test("leaving with unsaved changes asks first; once saved, links just work", async ({ page }) => {
  const { appId } = await builderWithApp(page);
  const editor = new EditorPage(page, appId);
  await editor.goto("texts");
  const saves = await dropSaves(page, appId);
  await editor.header.fill("Not saved yet");

  const asked: string[] = [];
  page.once("dialog", (dialog) => {
    asked.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  const home = page.getByRole("navigation", { name: messages.mainNavigation }).getByRole("link", {
    name: "Home",
  });
  await home.click();
  await expect.poll(() => asked).toEqual([`confirm: ${messages.unsavedChanges}`]);
  // Staying: the editor and the edit are still there.
  await expect(page).toHaveURL(new RegExp(`/build/app/${appId}`));
  await expect(editor.header).toHaveValue("Not saved yet");

  // Once the edit is saved, nothing asks.
  await saves.restore();
  await editor.expectSaved();
  page.on("dialog", (dialog) => {
    asked.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await home.click();
  await expect(page).toHaveURL(/\/home$/);
  expect(asked).toHaveLength(1);
  expect((await readApp(appId))?.header).toBe("Not saved yet");
});

test("leaving with unsaved changes and confirming leaves", async ({ page }) => {
  const { appId } = await builderWithApp(page);
  const editor = new EditorPage(page, appId);
  await editor.goto("texts");
  await dropSaves(page, appId);
  await editor.description.fill("Left behind on purpose");
  page.once("dialog", (dialog) => {
    expect(dialog.message()).toBe(messages.unsavedChanges);
    void dialog.accept();
  });
  await page
    .getByRole("navigation", { name: messages.mainNavigation })
    .getByRole("link", { name: "Home" })
    .click();
  await expect(page).toHaveURL(/\/home$/);
});
