import crypto from "node:crypto";
import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { fillTemplate } from "../../lib/text";
import { SpaceChatPage } from "./pages/space-chat-page";
import {
  expectNoA11yViolations,
  expectNoA11yViolationsInBothThemes,
  SPACE_PREVIEW_FRAME,
} from "./support/axe";
import { createApp, createBuilder, createEndUser, sql, uniqueEmail } from "./support/db";
import { seedVersion } from "./support/space";
import { logInAsBuilder, toast } from "./support/ui";

// The Database panel of a space app: empty, then the entity the chat created
// (the e2e run's demo assistant adds a Task entity when asked for tasks), its fields and access,
// and an access preset sent to the chat as a message, which the assistant applies (edit_entity);
// and below the entities, Users: the app's end users, one made an admin of the app.

const tag = () => crypto.randomUUID().slice(0, 6);

const panelHeading = (page: Page) =>
  page.getByRole("heading", { level: 2, name: messages.editorDatabaseTitle });

async function openDatabase(page: Page) {
  await page
    .getByRole("navigation", { name: messages.editorPanels })
    .getByRole("button", { name: messages.editorMenuDatabase })
    .click();
  await expect(panelHeading(page)).toBeFocused();
}

const fieldRow = (page: Page, name: string) =>
  page
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader").filter({ hasText: new RegExp(`^${name}`) }) });

test("empty, then the chat's entity with its fields and access; a preset goes to the chat and is applied", async ({
  page,
}) => {
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, { type: "space", header: `Tasks ${tag()}` });
  await logInAsBuilder(page, builder);
  const chat = new SpaceChatPage(page, appId);
  await chat.goto();
  // The chat has loaded (its empty state) before anything is asked of it.
  await expect(page.getByRole("heading", { name: messages.chatEmptyTitle })).toBeVisible({ timeout: 20_000 });

  await openDatabase(page);
  await expect(page.getByRole("heading", { name: messages.databaseEmpty })).toBeVisible();
  await expect(page.getByText(messages.databaseEmptyHint)).toBeVisible();
  await page.getByRole("button", { name: messages.editorBackToMenu }).click();

  // The chat makes a Task entity, with three sample records.
  const answer = await chat.newAnswer(() => chat.ask("Keep a list of my tasks, with sample tasks"));
  await expect(answer).toHaveAttribute("data-status", "complete", { timeout: 30_000 });

  await openDatabase(page);
  const details = page.getByRole("region", { name: "Task" });
  await expect(details).toBeVisible();
  for (const [name, type, required] of [
    ["id", "string", "Yes"],
    ["creatorId", "string", "Yes"],
    ["createdAt", fillTemplate(messages.databaseDateTime, { type: "string" }), "Yes"],
    ["title", "string", "Yes"],
    ["done", "boolean", "No"],
  ]) {
    await expect(fieldRow(page, name!).getByRole("cell")).toHaveText([type!, required!]);
  }
  await expect(fieldRow(page, "id").getByRole("rowheader")).toContainText(messages.databaseBuiltIn);
  const access = details.locator("dl");
  await expect(access).toContainText(`${messages.databaseRead}${messages.accessCreator}`);
  await expect(access).toContainText(`${messages.databaseWrite}${messages.accessCreator}`);
  await expectNoA11yViolations(page, "database panel", undefined, SPACE_PREVIEW_FRAME);

  // Its records: newest first, one deleted after a confirm, the rest exported as CSV.
  // The grid's columns: id, creatorId, createdAt (read-only), then title and done.
  const records = details.getByRole("grid", { name: `${messages.databaseRecords}: Task` });
  await expect(details.getByText(fillTemplate(messages.databaseRecordsCount, { count: 3 }))).toBeVisible();
  await expect(records.getByRole("row")).toHaveCount(4);
  await expect(records.getByRole("row").nth(1).getByRole("gridcell").nth(3)).toHaveText(
    /^(Buy milk|Call the plumber|Book the train)$/,
  );
  const plumber = records.getByRole("row").filter({ hasText: "Call the plumber" });
  await expect(plumber.getByRole("gridcell").nth(4)).toHaveText(messages.databaseRequiredYes);
  await plumber.getByRole("button", { name: messages.databaseDeleteRecord }).click();
  const confirm = page.getByRole("alertdialog", { name: messages.databaseDeleteRecordTitle });
  await confirm.getByRole("button", { name: messages.databaseDeleteRecord }).click();
  await expect(page.getByText(messages.databaseRecordDeleted)).toBeVisible();
  await expect(records.getByRole("row")).toHaveCount(3);
  await expect(details.getByText(fillTemplate(messages.databaseRecordsCount, { count: 2 }))).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    details.getByRole("link", { name: messages.databaseExport }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^Task_export_\d{4}-\d\d-\d\d\.csv$/);
  const csv = fs.readFileSync((await download.path())!, "utf8");
  expect(csv.split("\r\n")[0]).toBe(`title,done,${messages.databaseExportIdColumn}`);
  expect(csv).not.toContain("Call the plumber");
  expect(csv).toContain("Buy milk");

  // A preset: the panel gives way to the chat, which gets the request and applies it.
  await page.getByRole("button", { name: messages.databaseChangeAccess }).click();
  await page.getByRole("menuitem", { name: messages.accessPresetAnonymousSubmit }).click();
  await expect(panelHeading(page)).toBeHidden();
  await expect(chat.messages.filter({ hasText: "Change the access of the Task entity" })).toHaveCount(1);
  const applied = chat.answers.filter({ hasText: "Task: read Admin, write Anonymous." });
  await expect(applied).toHaveAttribute("data-status", "complete", { timeout: 30_000 });
  await openDatabase(page);
  await expect(access).toContainText(`${messages.databaseRead}${messages.accessAdmin}`);
  await expect(access).toContainText(`${messages.databaseWrite}${messages.accessAnonymous}`);
  // The fields are as they were.
  await expect(fieldRow(page, "title").getByRole("cell")).toHaveText(["string", "Yes"]);
});

test("at 375 px the entities are a dropdown, nothing is wider than the screen; dark theme passes axe", async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 800 }, colorScheme: "dark" });
  const page = await context.newPage();
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, { type: "space", header: `Tasks ${tag()}` });
  await logInAsBuilder(page, builder);
  const chat = new SpaceChatPage(page, appId);
  await chat.goto();
  // The chat has loaded (its empty state) before anything is asked of it.
  await expect(page.getByRole("heading", { name: messages.chatEmptyTitle })).toBeVisible({ timeout: 20_000 });
  const answer = await chat.newAnswer(() => chat.ask("Track the tasks of the team"));
  await expect(answer).toHaveAttribute("data-status", "complete", { timeout: 30_000 });

  await openDatabase(page);
  await expect(page.getByRole("navigation", { name: messages.databaseEntities })).toBeHidden();
  const picker = page.getByRole("combobox", { name: messages.databaseEntity });
  await expect(picker).toHaveText("Task");
  await picker.click();
  await expect(page.getByRole("option", { name: "Task" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("region", { name: "Task" })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectNoA11yViolations(page, "database panel at 375 px (dark)", undefined, SPACE_PREVIEW_FRAME);
  await context.close();
});

/** Picks Users in the panel's dropdown (the panel is a narrow column on a desktop, and on phones). */
async function pickUsers(page: Page) {
  await page.getByRole("combobox", { name: messages.databaseEntity }).click();
  await page.getByRole("option", { name: messages.databaseUsers }).click();
}

const roleOf = (page: Page, email: string) =>
  page.getByRole("combobox", { name: fillTemplate(messages.databaseUserRoleOf, { email }) });

test("Users: the app's end users newest first, one made an admin with the keyboard after a confirm", async ({
  page,
}, testInfo) => {
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, { type: "space", status: "active", header: `Team ${tag()}` });
  await logInAsBuilder(page, builder);
  const chat = new SpaceChatPage(page, appId);
  await chat.goto();
  await expect(page.getByRole("heading", { name: messages.chatEmptyTitle })).toBeVisible({ timeout: 20_000 });

  // Nobody has signed up yet: the view says where they will.
  await openDatabase(page);
  await expect(page.getByRole("heading", { name: messages.databaseEmpty })).toBeVisible();
  await pickUsers(page);
  const users = page.getByRole("region", { name: messages.databaseUsers });
  await expect(
    users.getByText(fillTemplate(messages.databaseUsersEmpty, { path: `/app/${appId}` })),
  ).toBeVisible();
  await page.getByRole("button", { name: messages.editorBackToMenu }).click();

  // Two end users sign up, Ann first.
  const ann = await createEndUser(appId, { email: uniqueEmail("ann") });
  const ben = await createEndUser(appId, { email: uniqueEmail("ben") });
  await openDatabase(page);
  await pickUsers(page);
  // The same grid as the entities' records: the row's id in place of creatorId, all read-only.
  const table = users.getByRole("grid", { name: messages.databaseUsers });
  await expect(table.getByRole("row")).toHaveCount(3);
  await expect(table.getByRole("columnheader").nth(0)).toHaveText("id");
  await expect(table.getByRole("row").nth(1).getByRole("gridcell").nth(0)).toHaveText(ben.id);
  await expect(table.getByRole("row").nth(2).getByRole("gridcell").nth(0)).toHaveText(ann.id);
  await expect(table.getByRole("row").nth(2).getByRole("gridcell").nth(1)).toHaveText(ann.email);
  await expect(table.getByRole("row").nth(2).getByRole("gridcell").nth(1)).toHaveAttribute(
    "aria-readonly",
    "true",
  );
  // The grid's keyboard: Enter on the email edits nothing.
  await table.getByRole("row").nth(2).getByRole("gridcell").nth(1).click();
  await page.keyboard.press("Enter");
  await expect(table.getByRole("textbox")).toHaveCount(0);
  await expect(table.getByRole("columnheader")).toHaveText([
    "id",
    "email",
    "role",
    "fullName",
    messages.databaseCreatedAt,
  ]);
  await expect(users.getByText(fillTemplate(messages.databaseUsersCount, { count: 2 }))).toBeVisible();
  await expectNoA11yViolations(page, "database panel: users", undefined, SPACE_PREVIEW_FRAME);
  await page.screenshot({ path: testInfo.outputPath("users-1280-light.png") });

  // With the keyboard: Ann's role, Admin, then Cancel: nothing changes.
  const annRole = roleOf(page, ann.email);
  await expect(annRole).toHaveText(messages.databaseRoleUser);
  const chooseAdmin = async () => {
    await annRole.focus();
    await page.keyboard.press("Enter");
    // The list opens on the current role; the next one down is Admin.
    await expect(page.getByRole("option", { name: messages.databaseRoleUser, exact: true })).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(page.getByRole("option", { name: messages.databaseRoleAdmin, exact: true })).toBeFocused();
    await page.keyboard.press("Enter");
  };
  await chooseAdmin();
  const confirm = page.getByRole("alertdialog", {
    name: fillTemplate(messages.databaseMakeAdminTitle, { email: ann.email }),
  });
  await expect(confirm).toContainText(messages.databaseMakeAdminText);
  await expectNoA11yViolations(page, "make-admin confirm", '[role="alertdialog"]');
  await page.screenshot({ path: testInfo.outputPath("users-1280-confirm.png") });
  await page.keyboard.press("Escape");
  await expect(confirm).toBeHidden();
  await expect(annRole).toHaveText(messages.databaseRoleUser);
  const roleInDb = async (id: string) =>
    (await sql<{ app_role: string }>("SELECT app_role FROM users WHERE id = $1", [id]))[0]?.app_role;
  expect(await roleInDb(ann.id)).toBe("user");

  // Confirmed: Ann is an admin of the app; Ben is not.
  await chooseAdmin();
  await confirm.getByRole("button", { name: messages.databaseMakeAdmin }).click();
  await expect(
    page.getByText(fillTemplate(messages.databaseRoleNowAdmin, { email: ann.email })),
  ).toBeVisible();
  await expect(annRole).toHaveText(messages.databaseRoleAdmin);
  await expect.poll(() => roleInDb(ann.id)).toBe("admin");
  expect(await roleInDb(ben.id)).toBe("user");
  await expect(roleOf(page, ben.email)).toHaveText(messages.databaseRoleUser);

  // Dark, and where the panel is wide enough for the sidebar: Users below the entities, current.
  await page.emulateMedia({ colorScheme: "dark" });
  await expectNoA11yViolations(page, "database panel: users (dark)", undefined, SPACE_PREVIEW_FRAME);
  await page.screenshot({ path: testInfo.outputPath("users-1280-dark.png") });
  await page.setViewportSize({ width: 1000, height: 900 });
  const nav = page.getByRole("navigation", { name: messages.databaseEntities });
  await expect(nav.getByRole("button", { name: messages.databaseUsers })).toHaveAttribute(
    "aria-current",
    "true",
  );
  await expectNoA11yViolations(page, "database panel: users sidebar (dark)", undefined, SPACE_PREVIEW_FRAME);
  await page.screenshot({ path: testInfo.outputPath("users-1000-dark.png") });
});

test("Users at 375 px: picked from the dropdown below the entities, nothing wider than the screen; axe light and dark", async ({
  browser,
}, testInfo) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 800 }, colorScheme: "dark" });
  const page = await context.newPage();
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, { type: "space", status: "active", header: `Team ${tag()}` });
  const ann = await createEndUser(appId, { email: uniqueEmail("ann") });
  await logInAsBuilder(page, builder);
  const chat = new SpaceChatPage(page, appId);
  await chat.goto();
  await expect(page.getByRole("heading", { name: messages.chatEmptyTitle })).toBeVisible({ timeout: 20_000 });
  const answer = await chat.newAnswer(() => chat.ask("Track the tasks of the team"));
  await expect(answer).toHaveAttribute("data-status", "complete", { timeout: 30_000 });

  await openDatabase(page);
  const picker = page.getByRole("combobox", { name: messages.databaseEntity });
  await expect(picker).toHaveText("Task");
  await picker.click();
  // The entities, then Users.
  await expect(page.getByRole("option")).toHaveText(["Task", messages.databaseUsers]);
  await page.getByRole("option", { name: messages.databaseUsers }).click();
  await expect(picker).toHaveText(messages.databaseUsers);
  const users = page.getByRole("region", { name: messages.databaseUsers });
  await expect(users.getByRole("row")).toHaveCount(2);
  await expect(roleOf(page, ann.email)).toHaveText(messages.databaseRoleUser);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectNoA11yViolations(page, "users at 375 px (dark)", undefined, SPACE_PREVIEW_FRAME);
  await page.screenshot({ path: testInfo.outputPath("users-375-dark.png"), fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });
  await expectNoA11yViolations(page, "users at 375 px (light)", undefined, SPACE_PREVIEW_FRAME);
  await page.screenshot({ path: testInfo.outputPath("users-375-light.png"), fullPage: true });
  await context.close();
});

// The records grid of an entity with a text, a boolean, a select and a JSON field: each cell kind
// edited and saved, JSON that does not parse refused, a row added (not when empty), an edit the
// server refuses put back, the keyboard's moves, axe in both themes, and at 375 px.
const ITEM_ENTITY = JSON.stringify({
  name: "Item",
  type: "object",
  properties: {
    name: { type: "string" },
    done: { type: "boolean" },
    status: { type: "string", enum: ["todo", "doing", "done"] },
    meta: { type: "object" },
  },
});

const itemData = async (id: string) =>
  (await sql<{ data: Record<string, unknown> }>("SELECT data FROM entity_records WHERE id = $1", [id]))[0]
    ?.data;

test("the records grid: each cell kind edited, a row added, keyboard moves; axe light and dark; 375 px", async ({
  page,
}) => {
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, { type: "space", header: `Items ${tag()}` });
  await seedVersion(appId, builder.accountId!, { "entities/Item.json": ITEM_ENTITY }, { current: true });
  const [seeded] = await sql<{ id: string }>(
    "INSERT INTO entity_records (app_id, entity, creator_id, data) VALUES ($1, 'Item', NULL, $2) RETURNING id",
    [appId, JSON.stringify({ name: "First", done: false, status: "todo", meta: { a: 1 } })],
  );
  const id = seeded!.id;
  await logInAsBuilder(page, builder);
  await new SpaceChatPage(page, appId).goto();
  await openDatabase(page);

  const grid = page.getByRole("grid", { name: `${messages.databaseRecords}: Item` });
  await expect(grid.getByRole("row")).toHaveCount(2);
  const cell = (row: number, col: number) => grid.getByRole("row").nth(row).getByRole("gridcell").nth(col);
  // Columns: id, creatorId, createdAt, name, done, status, meta, actions.
  await expect(cell(1, 3)).toHaveText("First");
  await expect(cell(1, 4)).toHaveText(messages.databaseRequiredNo);
  await expect(cell(1, 5)).toHaveText("todo");
  await expect(cell(1, 6)).toHaveText('{"a":1}');
  await expect(cell(1, 2).locator("time")).toHaveText(/\d{1,2}:\d\d (AM|PM)$/);

  // The rows are one tab stop (the header's menus and separators are their own); the arrows move the active cell.
  await expect(grid.locator('tbody [tabindex="0"]')).toHaveCount(1);
  await cell(1, 3).click();
  await expect(cell(1, 3)).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(cell(1, 4)).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await expect(cell(1, 3)).toBeFocused();
  await expect(grid.locator('tbody [tabindex="0"]')).toHaveCount(1);

  // Text: Enter edits, Escape cancels, Enter saves.
  await page.keyboard.press("Enter");
  const nameInput = grid.getByRole("textbox", {
    name: fillTemplate(messages.databaseEditCell, { field: "name" }),
  });
  await nameInput.fill("Nope");
  await page.keyboard.press("Escape");
  await expect(cell(1, 3)).toHaveText("First");
  await expect(cell(1, 3)).toBeFocused();
  await page.keyboard.press("Enter");
  await nameInput.fill("Renamed");
  await page.keyboard.press("Enter");
  await expect(cell(1, 3)).toHaveText("Renamed");
  await expect.poll(async () => (await itemData(id))?.name).toBe("Renamed");

  // Boolean: Enter toggles it.
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Enter");
  await expect(cell(1, 4)).toHaveText(messages.databaseRequiredYes);
  await expect.poll(async () => (await itemData(id))?.done).toBe(true);

  // Select: a double-click opens its options.
  await cell(1, 5).dblclick();
  await grid
    .getByRole("combobox", { name: fillTemplate(messages.databaseEditCell, { field: "status" }) })
    .selectOption("doing");
  await expect(cell(1, 5)).toHaveText("doing");
  await expect.poll(async () => (await itemData(id))?.status).toBe("doing");

  // JSON: in a dialog; what does not parse is refused with the reason.
  await cell(1, 6).dblclick();
  const dialog = page.getByRole("dialog", {
    name: fillTemplate(messages.databaseEditCell, { field: "meta" }),
  });
  await dialog.getByRole("textbox").fill("{bad");
  await dialog.getByRole("button", { name: messages.databaseCellSave }).click();
  await expect(dialog.getByRole("alert")).toHaveText(/^Invalid JSON: /);
  await dialog.getByRole("textbox").fill('{"b":2}');
  await dialog.getByRole("button", { name: messages.databaseCellSave }).click();
  await expect(dialog).toBeHidden();
  await expect(cell(1, 6)).toHaveText('{"b":2}');
  await expect.poll(async () => (await itemData(id))?.meta).toEqual({ b: 2 });

  // Add a row: pending at the top, refused while empty, confirmed once created.
  await page.getByRole("button", { name: messages.databaseAddRow }).click();
  const pending = grid.locator('[data-state="pending"]');
  await expect(pending).toContainText(messages.databaseRowPending);
  await pending.getByRole("button", { name: messages.databaseSaveRow }).click();
  await expect(toast(page, messages.databaseRowEmpty)).toBeVisible();
  await cell(1, 3).dblclick();
  await grid
    .getByRole("textbox", { name: fillTemplate(messages.databaseEditCell, { field: "name" }) })
    .fill("Second");
  await page.keyboard.press("Enter");
  await pending.getByRole("button", { name: messages.databaseSaveRow }).click();
  await expect(toast(page, messages.databaseRowCreated)).toBeVisible();
  await expect(pending).toHaveCount(0);
  await expect(grid.getByRole("row")).toHaveCount(3);
  await expect(page.getByText(fillTemplate(messages.databaseRecordsCount, { count: 2 }))).toBeVisible();
  await expect(cell(1, 3)).toHaveText("Second");

  // An edit the server refuses (the row was deleted meanwhile) is put back.
  await sql("DELETE FROM entity_records WHERE app_id = $1 AND data->>'name' = 'Second'", [appId]);
  await cell(1, 3).dblclick();
  await grid
    .getByRole("textbox", { name: fillTemplate(messages.databaseEditCell, { field: "name" }) })
    .fill("Gone");
  await page.keyboard.press("Enter");
  await expect(toast(page, messages.databaseRowUpdateFailed)).toBeVisible();
  await expect(cell(1, 3)).toHaveText("Second");

  await expectNoA11yViolationsInBothThemes(page, "database records grid", undefined, SPACE_PREVIEW_FRAME);
  await page.screenshot({ path: test.info().outputPath("records-grid.png") });

  // At 375 px the grid scrolls sideways inside its box; the page is no wider than the screen.
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: test.info().outputPath("records-grid-dark.png") });
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 375, height: 800 });
  // The panel stays open across the reload.
  await page.reload();
  // "Second" was deleted behind the panel's back: only the first row is left.
  await expect(cell(1, 3)).toHaveText("Renamed");
  const box = grid.locator("xpath=..");
  expect(await box.evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: test.info().outputPath("records-grid-375.png") });
});

// An entity with the kinds the first grid test does not edit: a text with a most length, a
// number, a date and time, an image, a multiselect and a select, each edited and saved.
const THING_ENTITY = JSON.stringify({
  name: "Thing",
  type: "object",
  properties: {
    name: { type: "string", maxLength: 20 },
    count: { type: "integer" },
    dueAt: { type: "string", format: "date-time" },
    coverImage: { type: "string" },
    tags: { type: "array", items: { type: "string", enum: ["home", "work", "urgent"] } },
    status: { type: "string", enum: ["todo", "doing", "done"] },
  },
});

const PIXEL =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

test("the records grid: number, date, image, multiselect chips, a select by keyboard, '{n} characters max'", async ({
  page,
}, testInfo) => {
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, { type: "space", header: `Things ${tag()}` });
  await seedVersion(appId, builder.accountId!, { "entities/Thing.json": THING_ENTITY }, { current: true });
  const [seeded] = await sql<{ id: string }>(
    "INSERT INTO entity_records (app_id, entity, creator_id, data) VALUES ($1, 'Thing', NULL, $2) RETURNING id",
    [appId, JSON.stringify({ name: "One", count: 1, tags: ["work"], status: "todo" })],
  );
  const id = seeded!.id;
  await logInAsBuilder(page, builder);
  await new SpaceChatPage(page, appId).goto();
  await openDatabase(page);

  const grid = page.getByRole("grid", { name: `${messages.databaseRecords}: Thing` });
  await expect(grid.getByRole("row")).toHaveCount(2);
  const cell = (col: number) => grid.getByRole("row").nth(1).getByRole("gridcell").nth(col);
  const edit = (field: string) => fillTemplate(messages.databaseEditCell, { field });
  // Columns: id, creatorId, createdAt, name, count, dueAt, coverImage, tags, status, actions.
  await expect(cell(7)).toHaveText("work");

  // Text with a most length: the input holds no more, and says so.
  await cell(3).dblclick();
  const name = grid.getByRole("textbox", { name: edit("name") });
  await expect(name).toHaveAttribute("maxlength", "20");
  const hint = fillTemplate(messages.databaseMaxLength, { n: 20 });
  await expect(grid.getByText(hint)).toBeVisible();
  await expect(name).toHaveAccessibleDescription(hint);
  // Not cut off by the grid's scroll box, though the row is its last and the cell at its right edge.
  const inside = await grid.getByText(hint).evaluate((el) => {
    const h = el.getBoundingClientRect();
    const b = el.closest('[role="grid"]')!.parentElement!.getBoundingClientRect();
    return h.top >= b.top && h.bottom <= b.bottom && h.left >= b.left && h.right <= b.right && h.height > 0;
  });
  expect(inside).toBe(true);
  await page.screenshot({ path: testInfo.outputPath("grid-max-length.png") });
  await name.fill("Short name");
  await page.keyboard.press("Enter");
  await expect(cell(3)).toHaveText("Short name");
  await expect.poll(async () => (await thingData(id))?.name).toBe("Short name");

  // Number.
  await cell(4).dblclick();
  await grid.getByRole("spinbutton", { name: edit("count") }).fill("42");
  await page.keyboard.press("Enter");
  await expect(cell(4)).toHaveText("42");
  await expect.poll(async () => (await thingData(id))?.count).toBe(42);

  // Date and time: shown in the 12-hour format.
  await cell(5).dblclick();
  await grid.locator(`input[aria-label="${edit("dueAt")}"]`).fill("2026-03-04T15:30");
  await page.keyboard.press("Enter");
  await expect(cell(5)).toHaveText("Mar 4, 2026, 3:30 PM");
  await expect.poll(async () => typeof (await thingData(id))?.dueAt).toBe("string");

  // Image: a URL, shown as a thumbnail.
  await cell(6).dblclick();
  await grid.getByRole("textbox", { name: edit("coverImage") }).fill(PIXEL);
  await page.keyboard.press("Enter");
  await expect(cell(6).getByRole("img", { name: "coverImage" })).toBeVisible();
  await expect.poll(async () => (await thingData(id))?.coverImage).toBe(PIXEL);

  // Multiselect: chips in a picker, toggled with the keyboard and the mouse.
  await cell(7).dblclick();
  const dialog = page.getByRole("dialog", { name: edit("tags") });
  const chips = dialog.getByRole("group", {
    name: fillTemplate(messages.databaseChipPickerLabel, { field: "tags" }),
  });
  await expect(chips.getByRole("button")).toHaveText(["home", "work", "urgent"]);
  await expect(chips.getByRole("button", { name: "work" })).toHaveAttribute("aria-pressed", "true");
  await expect(dialog.getByRole("textbox")).toHaveCount(0);
  await chips.getByRole("button", { name: "home" }).focus();
  await page.keyboard.press("Space");
  await expect(chips.getByRole("button", { name: "home" })).toHaveAttribute("aria-pressed", "true");
  await page.keyboard.press("ArrowRight");
  await expect(chips.getByRole("button", { name: "work" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(chips.getByRole("button", { name: "work" })).toHaveAttribute("aria-pressed", "false");
  await chips.getByRole("button", { name: "urgent" }).click();
  await expectNoA11yViolationsInBothThemes(page, "multiselect chip picker", '[role="dialog"]');
  await page.screenshot({ path: testInfo.outputPath("grid-chip-picker.png") });
  await dialog.getByRole("button", { name: messages.databaseCellSave }).click();
  await expect(dialog).toBeHidden();
  await expect(cell(7)).toHaveText("homeurgent");
  await expect.poll(async () => (await thingData(id))?.tags).toEqual(["home", "urgent"]);

  // A select with the keyboard: the arrows move through the options without saving; Escape puts
  // it back; Enter saves.
  await cell(8).click();
  await page.keyboard.press("Enter");
  const status = grid.getByRole("combobox", { name: edit("status") });
  await expect(status).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(status).toHaveValue("doing");
  await expect(status).toBeVisible();
  await page.keyboard.press("ArrowDown");
  await expect(status).toHaveValue("done");
  expect((await thingData(id))?.status).toBe("todo");
  await page.keyboard.press("Escape");
  await expect(status).toBeHidden();
  await expect(cell(8)).toHaveText("todo");
  await expect(cell(8)).toBeFocused();
  await page.keyboard.press("Enter");
  await page.keyboard.press("ArrowDown");
  await expect(status).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(cell(8)).toHaveText("doing");
  await expect.poll(async () => (await thingData(id))?.status).toBe("doing");

  await expectNoA11yViolationsInBothThemes(
    page,
    "records grid of every kind",
    undefined,
    SPACE_PREVIEW_FRAME,
  );
  await page.screenshot({ path: testInfo.outputPath("grid-kinds.png") });
});

const thingData = async (id: string) =>
  (await sql<{ data: Record<string, unknown> }>("SELECT data FROM entity_records WHERE id = $1", [id]))[0]
    ?.data;

const countItems = async (appId: string) =>
  Number(
    (
      await sql<{ n: string }>(
        "SELECT count(*) AS n FROM entity_records WHERE app_id = $1 AND entity = 'Item'",
        [appId],
      )
    )[0]?.n,
  );

test("bulk delete: ticked rows deleted 5 at a time with a progress bar, Cancel stops it; 'No data to export'; 375 px", async ({
  page,
}, testInfo) => {
  // Axe in both themes, twice, on a busy machine takes a while.
  test.setTimeout(150_000);
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, { type: "space", header: `Bulk ${tag()}` });
  await seedVersion(appId, builder.accountId!, { "entities/Item.json": ITEM_ENTITY }, { current: true });
  await logInAsBuilder(page, builder);
  await new SpaceChatPage(page, appId).goto();
  await openDatabase(page);
  const details = page.getByRole("region", { name: "Item" });

  // No records: Export says so rather than downloading an empty file.
  await expect(details.getByText(messages.databaseRecordsEmpty)).toBeVisible();
  let downloads = 0;
  page.on("download", () => downloads++);
  await details.getByRole("link", { name: messages.databaseExport }).click();
  await expect(toast(page, messages.databaseNoDataToExport)).toBeVisible();
  expect(downloads).toBe(0);

  // 45 records: 9 batches of 5.
  await sql(
    "INSERT INTO entity_records (app_id, entity, creator_id, data) SELECT $1, 'Item', NULL, jsonb_build_object('name', 'Row ' || i) FROM generate_series(1, 45) AS i",
    [appId],
  );
  await page.reload();
  const grid = page.getByRole("grid", { name: `${messages.databaseRecords}: Item` });
  await expect(details.getByText(fillTemplate(messages.databaseRecordsCount, { count: 45 }))).toBeVisible();

  // One box, then all of them, from the header.
  const firstBox = grid.getByRole("row").nth(1).getByRole("checkbox");
  await firstBox.click();
  await expect(details.getByText(fillTemplate(messages.databaseSelectedCount, { count: 1 }))).toBeVisible();
  const all = grid.getByRole("checkbox", { name: messages.databaseSelectAll });
  await expect(all).toHaveAttribute("aria-checked", "mixed");
  await all.click();
  await expect(details.getByText(fillTemplate(messages.databaseSelectedCount, { count: 45 }))).toBeVisible();
  await expectNoA11yViolationsInBothThemes(
    page,
    "records grid with rows ticked",
    undefined,
    SPACE_PREVIEW_FRAME,
  );
  await page.screenshot({ path: testInfo.outputPath("bulk-selected.png") });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: testInfo.outputPath("bulk-selected-dark.png") });
  await page.emulateMedia({ colorScheme: "light" });

  // A confirm first; Cancel there deletes nothing.
  await details.getByRole("button", { name: messages.databaseDeleteSelected }).click();
  const confirm = page.getByRole("alertdialog", {
    name: fillTemplate(messages.databaseDeleteSelectedTitle, { count: 45 }),
  });
  await confirm.getByRole("button", { name: messages.databaseCellCancel }).click();
  expect(await countItems(appId)).toBe(45);

  // Confirmed: the progress bar fills; Cancel stops after the batch in flight.
  await details.getByRole("button", { name: messages.databaseDeleteSelected }).click();
  await confirm.getByRole("button", { name: messages.databaseDeleteSelected }).click();
  const progress = details.getByRole("progressbar", { name: messages.databaseBulkDeleteProgress });
  await expect(progress).toBeVisible();
  await expect.poll(async () => Number(await progress.getAttribute("aria-valuenow"))).toBeGreaterThan(0);
  await page.screenshot({ path: testInfo.outputPath("bulk-progress.png") });
  await details.getByRole("button", { name: messages.databaseBulkDeleteCancel }).click();
  await expect(progress).toBeHidden();
  const left = await countItems(appId);
  expect(left).toBeGreaterThan(0);
  expect(left).toBeLessThan(45);
  expect((45 - left) % 5).toBe(0);
  await expect(
    toast(page, fillTemplate(messages.databaseBulkDeleteCancelled, { count: 45 - left })),
  ).toBeVisible();
  // The deleted rows left the grid; the rest are still ticked.
  // (A virtual list: only the rows in view are in the page; the grid says how many there are.)
  await expect(grid).toHaveAttribute("aria-rowcount", String(left + 1));
  await expect(details.getByText(fillTemplate(messages.databaseRecordsCount, { count: left }))).toBeVisible();
  await expect(
    details.getByText(fillTemplate(messages.databaseSelectedCount, { count: left })),
  ).toBeVisible();

  // One of them goes behind the panel's back: its delete fails, the others go.
  await sql(
    "DELETE FROM entity_records WHERE id = (SELECT id FROM entity_records WHERE app_id = $1 AND entity = 'Item' LIMIT 1)",
    [appId],
  );
  await details.getByRole("button", { name: messages.databaseDeleteSelected }).click();
  await page
    .getByRole("alertdialog", { name: fillTemplate(messages.databaseDeleteSelectedTitle, { count: left }) })
    .getByRole("button", { name: messages.databaseDeleteSelected })
    .click();
  await expect(toast(page, messages.databaseRecordDeleteFailed)).toBeVisible();
  await expect.poll(() => countItems(appId)).toBe(0);
  await expect(grid).toHaveAttribute("aria-rowcount", "2");
  await expect(details.getByText(fillTemplate(messages.databaseSelectedCount, { count: 1 }))).toBeVisible();

  // At 375 px the bar and the grid fit; nothing is wider than the screen.
  await page.setViewportSize({ width: 375, height: 800 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectNoA11yViolationsInBothThemes(page, "bulk delete at 375 px", undefined, SPACE_PREVIEW_FRAME);
  await page.screenshot({ path: testInfo.outputPath("bulk-375.png"), fullPage: true });
});

// Sorting, hiding and showing columns, resizing one with the keyboard, and loading on scroll, on
// an entity of 250 records (the grid holds the first 100, then loads the next as it nears them).
const LEDGER_ENTITY = JSON.stringify({
  name: "Ledger",
  type: "object",
  properties: { name: { type: "string" }, amount: { type: "number" } },
});
const LEDGER_ROWS = 250;

test("the records grid: column menus sort and hide, Columns shows again, keyboard resize, loading on scroll; kept across a reload", async ({
  page,
}) => {
  // Axe in both themes on a busy machine takes a while.
  test.setTimeout(150_000);
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, { type: "space", header: `Ledger ${tag()}` });
  await seedVersion(appId, builder.accountId!, { "entities/Ledger.json": LEDGER_ENTITY }, { current: true });
  // Names ascending with the amounts descending, created newest last.
  await sql(
    `INSERT INTO entity_records (app_id, entity, creator_id, data, created_at)
     SELECT $1, 'Ledger', NULL, jsonb_build_object('name', 'Entry ' || lpad(g::text, 3, '0'), 'amount', ${LEDGER_ROWS} - g),
       now() - (${LEDGER_ROWS} - g) * interval '1 second'
     FROM generate_series(1, ${LEDGER_ROWS}) g`,
    [appId],
  );
  await logInAsBuilder(page, builder);
  await new SpaceChatPage(page, appId).goto();
  await openDatabase(page);

  const grid = page.getByRole("grid", { name: `${messages.databaseRecords}: Ledger` });
  const box = grid.locator("xpath=..");
  // The name's cell of a row by its index (the header is 1), wherever columns are hidden.
  const nameCell = (rowIndex: number) =>
    grid
      .locator(`tr[aria-rowindex="${rowIndex}"]`)
      .getByRole("gridcell")
      .filter({ hasText: /^Entry \d{3}$/ });
  // Every record is counted; the grid renders only the rows in view.
  await expect(
    page.getByText(fillTemplate(messages.databaseRecordsCount, { count: LEDGER_ROWS })),
  ).toBeVisible();
  await expect(nameCell(2)).toHaveText("Entry 250");
  expect(await grid.locator("tbody tr").count()).toBeLessThan(40);

  // Sort with the keyboard: the name column's menu, Sort ascending.
  const menuOf = (field: string) =>
    grid.getByRole("button", { name: fillTemplate(messages.databaseColumnMenu, { field }) });
  await menuOf("name").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("menu")).toBeVisible();
  await expect(page.getByRole("menuitem", { name: messages.databaseSortAscending })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("menu")).toBeHidden();
  await expect(menuOf("name")).toBeFocused();
  await expect(grid.getByRole("columnheader", { name: "name" })).toHaveAttribute("aria-sort", "ascending");
  await expect(nameCell(2)).toHaveText("Entry 001");
  await expect(nameCell(3)).toHaveText("Entry 002");
  // By amount, descending: the server's order (numbers as numbers).
  await menuOf("amount").click();
  await page.getByRole("menuitem", { name: messages.databaseSortDescending }).click();
  await expect(grid.locator(`tr[aria-rowindex="2"]`).getByRole("gridcell").nth(4)).toHaveText("249");
  await expect(grid.locator(`tr[aria-rowindex="3"]`).getByRole("gridcell").nth(4)).toHaveText("248");
  await expect(grid.getByRole("columnheader", { name: "name" })).not.toHaveAttribute("aria-sort", /./);

  // Loading on scroll: scrolled to the end of what is loaded, the next page comes, until the last row.
  await expect(grid.locator('[data-state="loading"]')).toHaveCount(0);
  for (let i = 0; i < 20; i++) {
    await box.evaluate((e) => e.scrollTo({ top: e.scrollHeight }));
    if (await grid.locator(`tr[aria-rowindex="${LEDGER_ROWS + 1}"]`).isVisible()) break;
    await page.waitForTimeout(150);
  }
  await expect(
    grid
      .locator(`tr[aria-rowindex="${LEDGER_ROWS + 1}"]`)
      .getByRole("gridcell")
      .nth(4),
  ).toHaveText("0");
  await expect(grid.locator('[data-state="loading"]')).toHaveCount(0);
  expect(await grid.locator("tbody tr").count()).toBeLessThan(40);

  // Hide a column from its menu: the focus goes to the Columns menu, which shows it again.
  const columnsButton = page.getByRole("button", { name: new RegExp(`^${messages.databaseColumns}`) });
  await menuOf("amount").click();
  await page.getByRole("menuitem", { name: messages.databaseHideColumn }).click();
  await expect(menuOf("amount")).toHaveCount(0);
  await expect(columnsButton).toBeFocused();
  await page.keyboard.press("Enter");
  const amountItem = page.getByRole("menuitemcheckbox", { name: "amount", exact: true });
  await expect(amountItem).toHaveAttribute("aria-checked", "false");
  await expect(page.getByRole("menuitemcheckbox", { name: "name", exact: true })).toHaveAttribute(
    "aria-checked",
    "true",
  );
  await amountItem.click();
  await expect(amountItem).toHaveAttribute("aria-checked", "true");
  await page.getByRole("menuitemcheckbox", { name: "id", exact: true }).click();
  await page.keyboard.press("Escape");
  await expect(menuOf("amount")).toHaveCount(1);
  await expect(menuOf("id")).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath("records-grid-columns.png") });

  // Resize with the keyboard: the name column's separator, a step per arrow, within 50 and 400.
  const separator = grid.getByRole("separator", {
    name: fillTemplate(messages.databaseResizeColumn, { field: "name" }),
  });
  const header = grid.getByRole("columnheader", { name: "name" });
  await expect(separator).toHaveAttribute("aria-valuenow", "100");
  await expect(separator).toHaveAttribute("aria-valuemin", "50");
  await expect(separator).toHaveAttribute("aria-valuemax", "400");
  await separator.focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(separator).toHaveAttribute("aria-valuenow", "120");
  expect(Math.round((await header.boundingBox())!.width)).toBe(120);
  for (let i = 0; i < 10; i++) await page.keyboard.press("ArrowLeft");
  await expect(separator).toHaveAttribute("aria-valuenow", "50");
  await page.keyboard.press("End");
  await expect(separator).toHaveAttribute("aria-valuenow", "400");
  await expect(separator).toBeFocused();

  // The keyboard alone loads on: down from the first row, past the 100 loaded.
  await menuOf("name").click();
  await page.getByRole("menuitem", { name: messages.databaseSortAscending }).click();
  await expect(nameCell(2)).toHaveText("Entry 001");
  await nameCell(2).click();
  for (let i = 0; i < 12; i++) await page.keyboard.press("PageDown");
  await page.keyboard.press("ArrowDown");
  const focusedRow = async () =>
    Number(await page.evaluate(() => document.activeElement?.closest("tr")?.getAttribute("aria-rowindex")));
  await expect.poll(focusedRow).toBeGreaterThanOrEqual(102);
  await expect(page.locator(":focus")).toHaveText(/^Entry 1\d\d$/);

  await expectNoA11yViolationsInBothThemes(
    page,
    "records grid with column menus",
    'section[aria-labelledby="entity-Ledger"]',
  );

  // The sort and the hidden columns are kept in this browser.
  await page.reload();
  await expect(nameCell(2)).toHaveText("Entry 001");
  await expect(grid.getByRole("columnheader", { name: "name" })).toHaveAttribute("aria-sort", "ascending");
  await expect(menuOf("id")).toHaveCount(0);
});
