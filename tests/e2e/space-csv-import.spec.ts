import crypto from "node:crypto";
import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { fillTemplate } from "../../lib/text";
import { SpaceChatPage } from "./pages/space-chat-page";
import { expectNoA11yViolations, expectNoA11yViolationsInBothThemes } from "./support/axe";
import { createApp, createBuilder, sql } from "./support/db";
import { MODEL_DOWN_WORD } from "./support/model-responder";
import { seedVersion } from "./support/space";
import { logInAsBuilder } from "./support/ui";

// The Database panel's CSV import wizard: upload (the spec's messages for an empty file, one
// without rows and one that cannot be parsed), the mapping suggested by the local model server or,
// when it fails, the basic name match, a confirm for a column mapped to id, the upload's and the
// job's progress, the result with the failed rows listed and downloaded, the grid reloaded; a
// running import shown again after its tab was closed; axe in both themes; 375 px.

const tag = () => crypto.randomUUID().slice(0, 6);

const CONTACT_ENTITY = JSON.stringify({
  name: "Contact",
  type: "object",
  properties: {
    name: { type: "string", maxLength: 30 },
    email: { type: "string" },
    vip: { type: "boolean" },
    tags: { type: "array", items: { type: "string", enum: ["friend", "work", "family"] } },
    age: { type: "number" },
  },
  required: ["name"],
});

async function contactsApp(page: Page) {
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, { type: "space", header: `Contacts ${tag()}` });
  await seedVersion(
    appId,
    builder.accountId!,
    { "entities/Contact.json": CONTACT_ENTITY },
    { current: true },
  );
  await logInAsBuilder(page, builder);
  await new SpaceChatPage(page, appId).goto();
  await openDatabase(page);
  return { builder, appId };
}

async function openDatabase(page: Page) {
  await page
    .getByRole("navigation", { name: messages.editorPanels })
    .getByRole("button", { name: messages.editorMenuDatabase })
    .click();
  await expect(page.getByRole("heading", { level: 2, name: messages.editorDatabaseTitle })).toBeFocused();
}

const wizard = (page: Page) =>
  page.getByRole("dialog", { name: fillTemplate(messages.csvImportTitle, { entity: "Contact" }) });

async function openWizard(page: Page) {
  await page.getByRole("button", { name: messages.csvImportOpen }).click();
  await expect(wizard(page)).toBeVisible();
}

const chooseCsv = (page: Page, name: string, content: string | Buffer) =>
  wizard(page)
    .locator('input[type="file"]')
    .setInputFiles({
      name,
      mimeType: "text/csv",
      buffer: Buffer.isBuffer(content) ? content : Buffer.from(content),
    });

const fieldOf = (page: Page, column: string) =>
  wizard(page).getByRole("combobox", { name: fillTemplate(messages.csvImportFieldOf, { column }) });

const contactsIn = async (appId: string) =>
  (
    await sql<{ data: Record<string, unknown> }>(
      "SELECT data FROM entity_records WHERE app_id = $1 AND entity = 'Contact' ORDER BY data->>'name'",
      [appId],
    )
  ).map((r) => r.data);

test("a CSV mapped by the local model: a confirm for id, progress, failed rows listed and downloaded, the grid reloaded; axe in both themes", async ({
  page,
}, testInfo) => {
  // The whole wizard and axe in both themes on a busy machine: 44 s alone, over 60 s beside
  // another worker.
  test.setTimeout(150_000);
  const { appId } = await contactsApp(page);
  await expect(page.getByText(messages.databaseRecordsEmpty)).toBeVisible();
  await openWizard(page);
  await expect(
    wizard(page).getByRole("listitem").filter({ hasText: messages.csvImportStepUpload }),
  ).toHaveAttribute("aria-current", "step");
  await expectNoA11yViolationsInBothThemes(page, "CSV import: upload", '[role="dialog"]');

  // The spec's words for what cannot be imported, read in the browser.
  const alert = wizard(page).getByRole("alert");
  await chooseCsv(page, "empty.csv", "");
  await expect(alert).toHaveText(messages.csvEmpty);
  expect(messages.csvEmpty).toBe("CSV file appears to be empty");
  await chooseCsv(page, "headers.csv", "Name,E-mail\n,\n");
  await expect(alert).toHaveText(messages.csvNoRows);
  expect(messages.csvNoRows).toBe("No valid data rows found in CSV");
  await chooseCsv(page, "broken.csv", Buffer.from([0x4e, 0x0a, 0xff, 0xfe, 0x41]));
  await expect(alert).toHaveText(messages.csvParseFailed);
  expect(messages.csvParseFailed).toBe("Failed to parse CSV file. Please check the format.");

  // Seven rows: five go in, one has an age that is no number, one a name past the schema's 30.
  const csv = [
    "Id,Name,E-mail,VIP,Tags,Age",
    "a1,Ann Lee,ann@example.com,yes,friend;work,34",
    "a2,Ben Ode,ben@example.com,no,family,41",
    "a3,Cy Young,cy@example.com,true,,lots",
    "a4,Dee Ray,dee@example.com,false,work,29",
    "a5,A name far too long for the field to take,e@example.com,no,,50",
    "a6,Fay Kim,fay@example.com,yes,friend,22",
    "a7,Gus Tan,gus@example.com,no,work;family,61",
  ].join("\n");
  await chooseCsv(page, "contacts.csv", csv);

  // Mapping: the model's suggestion (E-mail fills email: no name match would), the preview's first 5 rows.
  await expect(
    wizard(page).getByRole("status").filter({ hasText: messages.csvMappingSuggested }),
  ).toBeVisible({
    timeout: 20_000,
  });
  await expect(
    wizard(page).getByRole("listitem").filter({ hasText: messages.csvImportStepMapping }),
  ).toHaveAttribute("aria-current", "step");
  const preview = wizard(page).getByRole("region", {
    name: fillTemplate(messages.csvImportPreview, { n: 5 }),
  });
  await expect(preview.getByRole("row")).toHaveCount(6);
  await expect(preview.getByRole("columnheader")).toHaveText(["Id", "Name", "E-mail", "VIP", "Tags", "Age"]);
  await expect(fieldOf(page, "E-mail")).toHaveValue("email");
  await expect(fieldOf(page, "Name")).toHaveValue("name");
  await expect(fieldOf(page, "VIP")).toHaveValue("vip");
  await expect(fieldOf(page, "Age")).toHaveValue("age");
  await expect(fieldOf(page, "Id")).toHaveValue("id");
  await expect(
    wizard(page).getByRole("combobox", { name: fillTemplate(messages.csvImportTypeOf, { column: "Tags" }) }),
  ).toHaveValue("multiselect");
  const split = wizard(page).getByRole("combobox", {
    name: fillTemplate(messages.csvImportSplitOf, { column: "Tags" }),
  });
  await expect(split).toHaveValue(";");
  await expect(split.locator("option")).toHaveText([
    messages.csvSplitComma,
    messages.csvSplitSemicolon,
    messages.csvSplitPipe,
    messages.csvSplitLineBreak,
    messages.csvSplitTab,
  ]);
  await expectNoA11yViolationsInBothThemes(page, "CSV import: mapping", '[role="dialog"]');
  await page.screenshot({ path: testInfo.outputPath("mapping-1280-light.png") });

  // Id maps to id: a confirm first (Cancel stays on the mapping).
  await wizard(page).getByRole("button", { name: messages.csvImportStart }).click();
  const confirm = page.getByRole("alertdialog", { name: messages.csvImportBuiltInTitle });
  await expect(confirm).toContainText(fillTemplate(messages.csvImportBuiltInText, { columns: "Id" }));
  await confirm.getByRole("button", { name: messages.cancel }).click();
  await expect(fieldOf(page, "Id")).toBeVisible();

  // A slow uplink, so the upload's progress shows.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 1500,
    downloadThroughput: -1,
    uploadThroughput: 4 * 1024,
  });
  await wizard(page).getByRole("button", { name: messages.csvImportStart }).click();
  await confirm.getByRole("button", { name: messages.csvImportBuiltInConfirm }).click();
  await expect(wizard(page).getByRole("progressbar", { name: messages.csvImportUploadLabel })).toBeVisible();
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });

  // Complete: the spec's sentence, the failed rows with their number and reason.
  const result = fillTemplate(messages.csvImportPartial, { n: 2, total: 7 });
  expect(result).toBe("Import completed with 2 failed rows out of 7 total.");
  await expect(wizard(page).getByRole("status").filter({ hasText: result })).toBeVisible({ timeout: 60_000 });
  const failed = wizard(page).getByRole("region", { name: messages.csvImportFailedRows });
  await expect(failed.getByRole("row")).toHaveCount(3);
  await expect(failed.getByRole("row").nth(1).getByRole("cell")).toHaveText([
    "3",
    "age: 'lots' is not a valid number",
  ]);
  await expect(failed.getByRole("row").nth(2).getByRole("cell").nth(0)).toHaveText("5");
  await expect(failed.getByRole("row").nth(2).getByRole("cell").nth(1)).toContainText("name");
  await expectNoA11yViolationsInBothThemes(page, "CSV import: complete", '[role="dialog"]');
  await page.screenshot({ path: testInfo.outputPath("complete-1280-light.png") });

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    wizard(page).getByRole("button", { name: messages.csvImportDownloadFailed }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("Contact_import_failed_rows.csv");
  const saved = fs.readFileSync((await download.path())!, "utf8").split("\r\n");
  expect(saved[0]).toBe(`${messages.csvImportRow},${messages.csvImportReason}`);
  expect(saved[1]).toBe("3,age: 'lots' is not a valid number");
  expect(saved).toHaveLength(3);

  // Typed by the mapping (tags split on ";"); the grid shows the new rows.
  expect(await contactsIn(appId)).toEqual([
    { name: "Ann Lee", email: "ann@example.com", vip: true, tags: ["friend", "work"], age: 34 },
    { name: "Ben Ode", email: "ben@example.com", vip: false, tags: ["family"], age: 41 },
    { name: "Dee Ray", email: "dee@example.com", vip: false, tags: ["work"], age: 29 },
    { name: "Fay Kim", email: "fay@example.com", vip: true, tags: ["friend"], age: 22 },
    { name: "Gus Tan", email: "gus@example.com", vip: false, tags: ["work", "family"], age: 61 },
  ]);
  await wizard(page).getByRole("button", { name: messages.csvImportDone }).click();
  await expect(wizard(page)).toBeHidden();
  await expect(page.getByText(fillTemplate(messages.databaseRecordsCount, { count: 5 }))).toBeVisible();
  const grid = page.getByRole("grid", { name: `${messages.databaseRecords}: Contact` });
  await expect(grid.getByRole("row")).toHaveCount(6);
});

test("at 375 px (dark): the model fails, the basic mapping is used and changed by hand, every row goes in", async ({
  browser,
}, testInfo) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 800 }, colorScheme: "dark" });
  const page = await context.newPage();
  const { appId } = await contactsApp(page);
  await openWizard(page);
  // A header with the word makes the local model server answer 503.
  await chooseCsv(page, "people.csv", `name,Flag,${MODEL_DOWN_WORD} notes\nAnn,yes,x\nBen,no,y\nCy,yes,z\n`);
  await expect(wizard(page).getByRole("status").filter({ hasText: messages.csvMappingFallback })).toBeVisible(
    {
      timeout: 20_000,
    },
  );
  expect(messages.csvMappingFallback).toBe(
    "Couldn't generate AI mapping suggestions. Using basic mapping instead.",
  );
  // The basic match: by name, case-insensitively; the others not imported.
  await expect(fieldOf(page, "name")).toHaveValue("name");
  await expect(fieldOf(page, "Flag")).toHaveValue("");
  await expect(fieldOf(page, "Flag").locator("option:checked")).toHaveText(messages.csvImportDontImport);
  await fieldOf(page, "Flag").selectOption("vip");
  await expect(
    wizard(page).getByRole("combobox", { name: fillTemplate(messages.csvImportTypeOf, { column: "Flag" }) }),
  ).toHaveValue("boolean");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectNoA11yViolations(page, "CSV import: mapping at 375 px (dark)", '[role="dialog"]');
  await page.screenshot({ path: testInfo.outputPath("mapping-375-dark.png"), fullPage: true });

  await wizard(page).getByRole("button", { name: messages.csvImportStart }).click();
  const result = fillTemplate(messages.csvImportAll, { total: 3 });
  expect(result).toBe("Successfully imported all 3 rows.");
  await expect(wizard(page).getByRole("status").filter({ hasText: result })).toBeVisible({ timeout: 60_000 });
  await expect(wizard(page).getByRole("region", { name: messages.csvImportFailedRows })).toHaveCount(0);
  await expectNoA11yViolations(page, "CSV import: complete at 375 px (dark)", '[role="dialog"]');
  await page.screenshot({ path: testInfo.outputPath("complete-375-dark.png"), fullPage: true });
  expect(await contactsIn(appId)).toEqual([
    { name: "Ann", vip: true },
    { name: "Ben", vip: false },
    { name: "Cy", vip: true },
  ]);
  await context.close();
});

test("a running import shows its progress again once the tab is closed and the panel reopened; a failed one says so", async ({
  browser,
}, testInfo) => {
  const context = await browser.newContext();
  const first = await context.newPage();
  const { builder, appId } = await contactsApp(first);
  // An import the job is in the middle of (held: nothing queues it), as the wizard remembers it.
  const [imp] = await sql<{ id: string }>(
    `INSERT INTO entity_imports (app_id, entity, creator_id, status, mapping, total, imported, failed, batches)
     VALUES ($1, 'Contact', $2, 'importing', '[]', 500, 480, 20, 1) RETURNING id`,
    [appId, builder.id],
  );
  await first.evaluate(
    ([key, value]) => localStorage.setItem(key!, value!),
    [`csv-import:${appId}:Contact`, JSON.stringify({ importId: imp!.id, rows: 2000 })],
  );
  await first.close();

  const page = await context.newPage();
  await new SpaceChatPage(page, appId).goto();
  // The panel opens straight onto the wizard, on the import's progress.
  await page
    .getByRole("navigation", { name: messages.editorPanels })
    .getByRole("button", { name: messages.editorMenuDatabase })
    .click();
  await expect(wizard(page)).toBeVisible();
  const bar = wizard(page).getByRole("progressbar", { name: messages.csvImportProgressLabel });
  await expect(bar).toHaveAttribute("aria-valuenow", "25");
  await expect(wizard(page)).toContainText(
    fillTemplate(messages.csvImportProgress, { done: 500, total: 2000, imported: 480, failed: 20 }),
  );
  await expectNoA11yViolations(page, "CSV import: importing", '[role="dialog"]');
  await page.screenshot({ path: testInfo.outputPath("importing-1280-light.png") });

  // The job moves on, then fails for good.
  await sql("UPDATE entity_imports SET total = 1500, imported = 1400, failed = 100 WHERE id = $1", [imp!.id]);
  await expect(bar).toHaveAttribute("aria-valuenow", "75");
  await sql("UPDATE entity_imports SET status = 'failed' WHERE id = $1", [imp!.id]);
  expect(messages.csvImportFailed).toBe("Failed to import data. Please try again.");
  await expect(wizard(page).getByRole("status").filter({ hasText: messages.csvImportFailed })).toBeVisible();
  // Ended: the browser forgets it, so a panel opened again does not bring it back.
  await expect
    .poll(() => page.evaluate((key) => localStorage.getItem(key), `csv-import:${appId}:Contact`))
    .toBeNull();
  await context.close();
});
