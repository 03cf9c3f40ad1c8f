import crypto from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { getPlanCapabilities } from "../../lib/plans/capabilities";
import { formatMegabytes } from "../../lib/plans/features";
import { fillTemplate } from "../../lib/text";
import { DEMO_SITE_TEXT } from "../support/demo-site-server";
import { docxWithText, oleDoc } from "../support/documents";
import { DataSourcesPanel, type FilePayload } from "./pages/data-sources-panel";
import { EditorPage } from "./pages/editor-page";
import { expectNoA11yViolations } from "./support/axe";
import { createApp, createBuilder, type SeededUser, sql } from "./support/db";
import { pdfWithText, productsCsv } from "./support/documents";
import { logInAsBuilder, toast } from "./support/ui";

// The Data sources panel and dialog: what a builder adds is saved
// as Pending at once and read by the worker inside the e2e server, and the panel follows its
// status live (Pending, Syncing..., Synced, Error) without a reload; every refusal and failure
// shows the spec's words. Failures are real: a revoked session, a deleted app or item, a month
// used up in the database.

test.use({ viewport: { width: 1280, height: 900 } });

const LITE = getPlanCapabilities("lite");
const suffix = () => crypto.randomUUID().slice(0, 6);
const csvFile = (name: string, buffer: Buffer): FilePayload => ({ name, mimeType: "text/csv", buffer });

/** A builder (lite unless told) with a single-tool app, logged in, on its Data sources panel. */
async function openPanel(page: Page, plan = "lite") {
  const builder = await createBuilder({ plan });
  const app = await createApp(builder, { header: `Data ${suffix()}` });
  await logInAsBuilder(page, builder);
  const editor = new EditorPage(page, app.appId);
  await editor.goto("data-sources");
  const panel = new DataSourcesPanel(page);
  await panel.ready();
  return { builder, appId: app.appId, editor, panel };
}

/**
 * Records, in the page, every status word each item's badge shows (by item id), and marks the
 * page so a reload would be seen: the live updates must come without one.
 */
async function recordStatuses(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __statuses: Record<string, string[]>; __sameDocument: boolean };
    w.__statuses = {};
    w.__sameDocument = true;
    const record = () => {
      for (const row of document.querySelectorAll<HTMLElement>("li[data-item-id]")) {
        const status = row.querySelector("[data-status]")?.textContent;
        const id = row.dataset.itemId;
        if (!status || !id) continue;
        const seen = w.__statuses[id] ?? [];
        if (seen.at(-1) !== status) w.__statuses[id] = [...seen, status];
      }
    };
    new MutationObserver(record).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ["data-status"],
    });
  });
}

/** The statuses an item's badge showed, in order; ["reloaded"] when the page was loaded again. */
async function statusesSeen(page: Page, panel: DataSourcesPanel, name: string): Promise<string[]> {
  const id = await panel.row(name).getAttribute("data-item-id");
  return page.evaluate((itemId) => {
    const w = window as unknown as { __statuses?: Record<string, string[]>; __sameDocument?: boolean };
    return w.__sameDocument ? (w.__statuses?.[itemId ?? ""] ?? []) : ["reloaded"];
  }, id);
}

/** Records every value the upload's progress bar shows, with its text, from now on. */
async function recordProgress(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __progress: { value: number; text: string }[] };
    w.__progress = [];
    const record = () => {
      const bar = document.querySelector<HTMLElement>('[role="dialog"] [role="progressbar"]');
      const value = Number(bar?.getAttribute("aria-valuenow") ?? Number.NaN);
      if (!bar || Number.isNaN(value) || w.__progress.at(-1)?.value === value) return;
      w.__progress.push({ value, text: bar.parentElement?.querySelector("p")?.textContent ?? "" });
    };
    new MutationObserver(record).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ["aria-valuenow"],
    });
  });
}

const progressSeen = (page: Page) =>
  page.evaluate(() => (window as unknown as { __progress: { value: number; text: string }[] }).__progress);

/** Waits for the item to be Synced, and checks its badge went Pending, Syncing..., Synced live. */
async function expectSyncedLive(page: Page, panel: DataSourcesPanel, name: string, timeout: number) {
  await expect(panel.status(name)).toHaveText(messages.contextStatusSynced, { timeout });
  expect(await statusesSeen(page, panel, name)).toEqual([
    messages.contextStatusPending,
    messages.contextStatusSyncing,
    messages.contextStatusSynced,
  ]);
}

/** Every session of the user ends (as 'Sign out everywhere' does), or stands again. */
const revokeSessions = (user: SeededUser) =>
  sql("UPDATE sessions SET revoked_at = now() WHERE user_id = $1", [user.id]);
const restoreSessions = (user: SeededUser) =>
  sql("UPDATE sessions SET revoked_at = NULL WHERE user_id = $1", [user.id]);

const itemsOf = (appId: string) =>
  sql<{ id: string; name: string; status: string; error: string | null; type: string }>(
    "SELECT id, name, status, error, type FROM context_items WHERE app_id = $1 ORDER BY created_at",
    [appId],
  );

/** The text of every chunk of the app's items, as the worker stored them. */
async function chunkTextOf(appId: string): Promise<string> {
  const chunks = await sql<{ text: string }>(
    "SELECT c.text FROM context_chunks c JOIN context_items i ON i.id = c.item_id WHERE i.app_id = $1",
    [appId],
  );
  return chunks.map((c) => c.text).join("\n");
}

/** The local website scripts/e2e.ts serves (tests/support/demo-site-server.ts). */
function demoSiteUrl(): string {
  const url = process.env.E2E_DEMO_SITE_URL;
  if (!url) throw new Error("E2E_DEMO_SITE_URL is not set: run the end-to-end tests with `npm run test:e2e`");
  return url;
}

test("empty state, the dialog's kinds, and a text that goes Pending then Synced live", async ({ page }) => {
  const { panel, appId } = await openPanel(page, "explorer");
  await expect(panel.emptyTitle).toBeVisible();
  await expect(page.getByText(messages.dataSourcesEmptyText)).toBeVisible();
  await expectNoA11yViolations(page, "data sources panel, empty");

  await panel.addData.click();
  await expect(panel.dialog).toBeVisible();
  for (const kind of [
    messages.dataSourceOptionText,
    messages.dataSourceOptionCsv,
    messages.dataSourceOptionDoc,
    messages.dataSourceOptionWebsite,
    messages.dataSourceOptionNotion,
    messages.dataSourceOptionDrive,
  ]) {
    await expect(panel.dialog.getByRole("button", { name: kind, exact: true })).toBeVisible();
  }
  await expectNoA11yViolations(page, "add data dialog", '[role="dialog"]');

  // An empty text is refused here, and the field gets the focus.
  await panel.choose(messages.dataSourceOptionText);
  await panel.submit(messages.dataSourceTextSubmit).click();
  await expect(panel.error(messages.contextEnterText)).toBeVisible();
  await expect(panel.text).toBeFocused();
  await panel.text.fill("   ");
  await panel.submit(messages.dataSourceTextSubmit).click();
  await expect(panel.error(messages.contextEnterText)).toBeVisible();
  await expectNoA11yViolations(page, "text form with its error", '[role="dialog"]');

  await recordStatuses(page);
  const text = "Shop hours: 9 to 18 on weekdays";
  await panel.text.fill(text);
  await panel.submit(messages.dataSourceTextSubmit).click();
  await expect(panel.dialog).toBeHidden();
  // At once, before the worker has run: Pending.
  await expect(panel.row(text)).toBeVisible();
  await expect(panel.row(text)).toContainText(messages.contextTypeTxt);
  await expect(panel.status(text)).toHaveText(messages.contextStatusSynced, { timeout: 60_000 });
  // Pending at once, then on without a reload. Either middle state may pass too fast to be
  // painted: a worker that takes the job before the row's first paint shows Syncing... first.
  const seen = await statusesSeen(page, panel, text);
  expect([messages.contextStatusPending, messages.contextStatusSyncing]).toContain(seen[0]);
  expect(seen.at(-1)).toBe(messages.contextStatusSynced);
  expect([
    messages.contextStatusPending,
    messages.contextStatusSyncing,
    messages.contextStatusSynced,
  ]).toEqual(expect.arrayContaining(seen));
  expect((await itemsOf(appId)).map((i) => [i.name, i.status])).toEqual([[text, "synced"]]);
  await expect(panel.emptyTitle).toHaveCount(0);
});

test("a CSV list uploads with its progress in percent, then goes Pending, Syncing... and Synced", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const { panel, appId } = await openPanel(page, "explorer");
  await recordStatuses(page);
  // Big enough that reading it takes a while (the worker reads one source at a time, so other
  // specs' items wait behind it: not bigger).
  const csv = productsCsv(20_000);
  const name = `products-${suffix()}.csv`;

  await panel.choose(messages.dataSourceOptionCsv);
  await panel.chooseFile(csvFile(name, csv));
  await expect(panel.dialog.getByText(new RegExp(`^${name}, \\d+(\\.\\d)? MB$`))).toBeVisible();

  // A slow uplink, so the progress can be watched.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 256 * 1024,
  });
  await recordProgress(page);
  await panel.submit(messages.dataSourceFileSubmit).click();
  await expect(panel.dialog).toBeHidden({ timeout: 30_000 });
  // Every value the bar showed, as painted (reading it from here could miss the middle on a busy
  // machine): it moved up through values between 0 and 100, the text saying the same.
  const shown = await progressSeen(page);
  const between = shown.filter((p) => p.value > 0 && p.value < 100);
  expect(between.length, JSON.stringify(shown)).toBeGreaterThan(0);
  expect(shown.map((p) => p.value)).toEqual([...shown.map((p) => p.value)].sort((a, b) => a - b));
  for (const p of shown)
    expect(p.text).toBe(fillTemplate(messages.dataSourceUploading, { percent: p.value }));
  expect(messages.dataSourceUploading).toBe("Uploading... {percent}%");
  await expect(panel.dialog).toBeHidden({ timeout: 30_000 });
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });

  await expect(panel.row(name)).toContainText(messages.contextTypeCsv);
  await expectSyncedLive(page, panel, name, 120_000);
  const [item] = await itemsOf(appId);
  expect(item).toMatchObject({ name, status: "synced", type: "csv" });
  const [{ count }] = await sql<{ count: string }>("SELECT count(*) FROM context_rows WHERE item_id = $1", [
    item!.id,
  ]);
  expect(Number(count)).toBe(20_000);
});

test("file refusals: no file, a CSV without rows, content that is not its type, and over the plan's size", async ({
  page,
}) => {
  const { panel, appId } = await openPanel(page);

  await panel.choose(messages.dataSourceOptionCsv);
  await panel.submit(messages.dataSourceFileSubmit).click();
  await expect(panel.error(messages.contextUploadFile)).toBeVisible();

  await panel.chooseFile(csvFile("headers-only.csv", Buffer.from("name,price\n")));
  await panel.submit(messages.dataSourceFileSubmit).click();
  await expect(panel.error(messages.contextCsvNoRows)).toBeVisible();

  // Lite's cap, checked before a byte is sent.
  const big = Buffer.alloc(Math.round(LITE.maxUploadBytes * 1.05), 0x61);
  await panel.chooseFile(csvFile("big.csv", big));
  await expect(
    panel.error(fillTemplate(messages.contextFileTooLarge, { size: formatMegabytes(LITE.maxUploadBytes) })),
  ).toBeVisible();
  await expectNoA11yViolations(page, "file form with its error", '[role="dialog"]');

  // A CSV named .pdf: the server reads the content.
  await panel.dialog.getByRole("button", { name: messages.dataSourcesDialogBack }).click();
  await panel.choose(messages.dataSourceOptionDoc);
  await panel.chooseFile({
    name: "report.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from("a,b\n1,2\n"),
  });
  await panel.submit(messages.dataSourceFileSubmit).click();
  await expect(panel.error(fillTemplate(messages.contextFileMismatch, { type: "PDF" }))).toBeVisible();

  expect(await itemsOf(appId)).toEqual([]);
});

test("a PDF and a Word document are read to Synced; an old .doc ends in Error with the reason", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { panel, appId } = await openPanel(page, "explorer");
  const pdf = await pdfWithText(["Opening hours: Monday to Friday", "Closed on Sundays"]);
  await panel.uploadFile(messages.dataSourceOptionDoc, {
    name: "hours.pdf",
    mimeType: "application/pdf",
    buffer: pdf,
  });
  await expect(panel.dialog).toBeHidden();
  await panel.uploadFile(messages.dataSourceOptionDoc, {
    name: "returns.docx",
    mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    buffer: docxWithText(["Returns are accepted within thirty days."]),
  });
  await expect(panel.dialog).toBeHidden();
  await panel.uploadFile(messages.dataSourceOptionDoc, {
    name: "old.doc",
    mimeType: "application/msword",
    buffer: oleDoc(),
  });
  await expect(panel.dialog).toBeHidden();

  await expect(panel.status("hours.pdf")).toHaveText(messages.contextStatusSynced, { timeout: 60_000 });
  await expect(panel.row("hours.pdf")).toContainText(messages.contextTypePdf);
  await expect(panel.status("returns.docx")).toHaveText(messages.contextStatusSynced, { timeout: 60_000 });
  await expect(panel.row("returns.docx")).toContainText(messages.contextTypeDoc);
  await expect(panel.status("old.doc")).toHaveText(messages.contextStatusError, { timeout: 60_000 });
  await expect(panel.row("old.doc")).toContainText(messages.contextDocUnreadable);
  await expectNoA11yViolations(page, "data sources panel with Synced and Error items");

  const all = await chunkTextOf(appId);
  expect(all).toContain("Closed on Sundays");
  expect(all).toContain("Returns are accepted within thirty days.");
});

test("lite: one item, then the upgrade dialog; rename, replace and delete the one item", async ({ page }) => {
  test.setTimeout(120_000);
  const { panel, appId } = await openPanel(page);
  await panel.addText("Our first note");
  await expect(panel.status("Our first note")).toHaveText(messages.contextStatusSynced, { timeout: 60_000 });

  // The plan's one item is used: adding opens the upgrade dialog, which says why.
  await expect(page.getByText(messages.upgradeReasonDataItems)).toBeVisible();
  await panel.addData.click();
  const upgrade = page.getByRole("dialog", { name: messages.upgradeDialogTitle });
  await expect(upgrade).toBeVisible();
  await expect(upgrade).toContainText(messages.upgradeReasonDataItems);
  await page.keyboard.press("Escape");
  await expect(upgrade).toHaveCount(0);
  await expect(panel.dialog).toHaveCount(0);

  // Rename in place: Escape cancels, Enter saves.
  await panel.action("Our first note", messages.dataSourceRename);
  const field = panel.renameField("Our first note");
  await expect(field).toBeFocused();
  await field.fill("Never mind");
  await page.keyboard.press("Escape");
  await expect(panel.row("Our first note")).toBeVisible();
  await panel.action("Our first note", messages.dataSourceRename);
  await panel.renameField("Our first note").fill("Shop notes");
  await expectNoA11yViolations(page, "rename field");
  await page.keyboard.press("Enter");
  await expect(panel.row("Shop notes")).toBeVisible();
  await expect(
    page.getByRole("button", { name: fillTemplate(messages.dataSourceActions, { name: "Shop notes" }) }),
  ).toBeFocused();
  await expect.poll(async () => (await itemsOf(appId)).map((i) => i.name)).toEqual(["Shop notes"]);

  // Replace: lite's one item makes way for the new text.
  const [old] = await itemsOf(appId);
  await panel.action("Shop notes", messages.dataSourceReplace);
  const replace = page.getByRole("dialog", {
    name: fillTemplate(messages.dataSourceReplaceTitle, { name: "Shop notes" }),
  });
  await expect(replace).toBeVisible();
  await replace.getByRole("button", { name: messages.dataSourceReplaceSubmit }).click();
  await expect(replace.getByText(messages.contextEnterText)).toBeVisible();
  await replace.getByLabel(messages.dataSourceTextLabel).fill("Open on Saturdays too");
  await replace.getByRole("button", { name: messages.dataSourceReplaceSubmit }).click();
  await expect(replace).toBeHidden();
  await expect(panel.row("Shop notes")).toHaveCount(0);
  await expect(panel.status("Open on Saturdays too")).toHaveText(messages.contextStatusSynced, {
    timeout: 30_000,
  });
  const now = await itemsOf(appId);
  expect(now.map((i) => i.name)).toEqual(["Open on Saturdays too"]);
  expect(now[0]!.id).not.toBe(old!.id);

  // Delete, after a confirmation.
  await panel.action("Open on Saturdays too", messages.dataSourceDelete);
  const confirm = page.getByRole("alertdialog", {
    name: fillTemplate(messages.dataSourceDeleteTitle, { name: "Open on Saturdays too" }),
  });
  await expect(confirm).toBeVisible();
  await expectNoA11yViolations(page, "delete confirmation", '[role="alertdialog"]');
  await confirm.getByRole("button", { name: messages.cancel }).click();
  await expect(panel.row("Open on Saturdays too")).toBeVisible();
  // The list read after the delete is held back: the item is gone from the panel at once, and a
  // click on Add waits for that read rather than trust the limit the list said before.
  let release: (() => void) | undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    (url) => url.pathname === "/api/context/items",
    async (route) => {
      await held;
      await route.continue();
    },
  );
  await panel.action("Open on Saturdays too", messages.dataSourceDelete);
  await confirm.getByRole("button", { name: messages.dataSourceDelete }).click();
  await expect(
    toast(page, fillTemplate(messages.deletedName, { name: "Open on Saturdays too" })),
  ).toBeVisible();
  await expect(panel.emptyTitle).toBeVisible();
  await expect(panel.addData).toBeFocused();
  expect(await itemsOf(appId)).toEqual([]);
  // The plan's item is free again.
  await panel.addData.click();
  release?.();
  await expect(panel.dialog).toBeVisible();
  await expect(upgrade).toHaveCount(0);
});

test("lite: an item added elsewhere while the dialog is open, the server's refusal opens the upgrade dialog", async ({
  page,
}) => {
  const { panel, appId } = await openPanel(page);
  await panel.choose(messages.dataSourceOptionText);
  // Another tab used the plan's one item meanwhile: the server refuses with its upgradeReason.
  await sql(
    `INSERT INTO context_items (app_id, name, type, source, status, size, content)
     VALUES ($1, 'From another tab', 'txt', 'local files', 'synced', 5, 'hello')`,
    [appId],
  );
  await panel.text.fill("One too many");
  await panel.submit(messages.dataSourceTextSubmit).click();
  const upgrade = page.getByRole("dialog", { name: messages.upgradeDialogTitle });
  await expect(upgrade).toBeVisible();
  await expect(upgrade).toContainText(messages.upgradeReasonDataItems);
  await expect(panel.dialog).toHaveCount(0);
  expect((await itemsOf(appId)).map((i) => i.name)).toEqual(["From another tab"]);
  // The list was read again behind the dialogs.
  await page.keyboard.press("Escape");
  await expect(panel.status("From another tab")).toHaveText(messages.contextStatusSynced);
});

test("failures say so: fetching, renaming, deleting, replacing and adding with the session gone", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { panel, builder, editor } = await openPanel(page, "explorer");
  await panel.addText("Kept note");
  await expect(panel.status("Kept note")).toHaveText(messages.contextStatusSynced, { timeout: 60_000 });

  await revokeSessions(builder);
  await panel.action("Kept note", messages.dataSourceRename);
  await panel.renameField("Kept note").fill("Lost name");
  await page.keyboard.press("Enter");
  await expect(toast(page, messages.contextRenameFailed)).toBeVisible();
  // The old name is back.
  await expect(panel.row("Kept note")).toBeVisible();

  await panel.action("Kept note", messages.dataSourceDelete);
  await page.getByRole("alertdialog").getByRole("button", { name: messages.dataSourceDelete }).click();
  await expect(toast(page, messages.contextDeleteFailed)).toBeVisible();
  await expect(panel.row("Kept note")).toBeVisible();

  await panel.action("Kept note", messages.dataSourceReplace);
  const replace = page.getByRole("dialog", {
    name: fillTemplate(messages.dataSourceReplaceTitle, { name: "Kept note" }),
  });
  await replace.getByLabel(messages.dataSourceTextLabel).fill("Replacement");
  await replace.getByRole("button", { name: messages.dataSourceReplaceSubmit }).click();
  await expect(replace.getByText(messages.contextReplaceFailed)).toBeVisible();
  await page.keyboard.press("Escape");

  // Adding: each kind with its own sentence.
  await panel.addText("Not saved");
  await expect(panel.error(messages.contextSaveDataFailed)).toBeVisible();
  await panel.dialog.getByRole("button", { name: messages.dataSourcesDialogBack }).click();
  await panel.uploadFile(messages.dataSourceOptionCsv, csvFile("list.csv", Buffer.from("a,b\n1,2\n")));
  await expect(panel.error(messages.contextUploadFailed)).toBeVisible();
  await panel.dialog.getByRole("button", { name: messages.dataSourcesDialogBack }).click();
  await panel.choose(messages.dataSourceOptionWebsite);
  await panel.dialog.getByLabel(messages.dataSourceUrlLabel).fill("https://www.example.com/");
  await panel.submit(messages.dataSourceUrlSubmit).click();
  await expect(panel.error(messages.contextUploadDataFailed)).toBeVisible();
  await page.keyboard.press("Escape");

  // The list cannot be read; once the session stands again, Try again shows it.
  await editor.backToMenu.click();
  await editor.openPanel(messages.editorMenuDataSources, messages.editorDataSourcesTitle);
  const failed = page.getByRole("alert").filter({ hasText: messages.contextFetchFailed });
  await expect(failed).toBeVisible();
  await restoreSessions(builder);
  await failed.getByRole("button", { name: messages.retry }).click();
  await expect(panel.status("Kept note")).toHaveText(messages.contextStatusSynced);
});

test("an app that is gone, and a month used up, refuse new data with the spec's words", async ({ page }) => {
  const { panel, builder, appId } = await openPanel(page, "explorer");

  // The month's processing allowance is used up.
  await sql(
    `INSERT INTO context_usage (account_id, month, bytes)
     VALUES ($1, (date_trunc('month', now() at time zone 'utc'))::date, $2)`,
    [builder.accountId, getPlanCapabilities("explorer").monthlyProcessingBytes],
  );
  await panel.addText("One more note");
  await expect(panel.error(messages.contextMonthlyLimit)).toBeVisible();

  // An item that ended in 'Usage limit reached' says why.
  await sql(
    `INSERT INTO context_items (app_id, name, type, source, status, error, size, content)
     VALUES ($1, 'Price list', 'txt', 'local files', 'usage_limit_reached', $2, 10, 'Tea costs 3')`,
    [appId, messages.contextMonthlyLimit],
  );
  await page.keyboard.press("Escape");
  await page.reload();
  await panel.ready();
  await expect(panel.status("Price list")).toHaveText(messages.contextStatusUsageLimit);
  await expect(panel.row("Price list")).toContainText(messages.contextMonthlyLimit);

  // The app is deleted (in another tab) while the dialog is open.
  await panel.choose(messages.dataSourceOptionText);
  await sql("DELETE FROM apps WHERE id = $1", [appId]);
  await panel.text.fill("Too late");
  await panel.submit(messages.dataSourceTextSubmit).click();
  await expect(panel.error(messages.contextSaveAppFirst)).toBeVisible();
});

test("dark scheme: the panel with its statuses and the dialog's forms pass axe", async ({ page }) => {
  // Three axe scans of a full page: slow on a busy machine.
  test.setTimeout(120_000);
  await page.emulateMedia({ colorScheme: "dark" });
  const { panel, appId } = await openPanel(page, "explorer");
  await sql(
    `INSERT INTO context_items (app_id, name, type, source, status, error, size, content, created_at) VALUES
       ($1, 'Waiting', 'txt', 'local files', 'pending', NULL, 5, 'hello', now() - interval '3 minutes'),
       ($1, 'Reading', 'csv', 'local files', 'running', NULL, 2048, NULL, now() - interval '2 minutes'),
       ($1, 'Broken', 'pdf', 'local files', 'error', $2, 4096, NULL, now() - interval '1 minute'),
       ($1, 'Used up', 'txt', 'local files', 'usage_limit_reached', $3, 5, 'hello', now())`,
    [appId, messages.contextFileUnreadable, messages.contextMonthlyLimit],
  );
  await page.reload();
  await panel.ready();
  await expect(panel.status("Broken")).toHaveText(messages.contextStatusError);
  await expect(panel.status("Reading")).toHaveText(messages.contextStatusSyncing);
  await expect(panel.status("Waiting")).toHaveText(messages.contextStatusPending);
  await expect(panel.status("Used up")).toHaveText(messages.contextStatusUsageLimit);
  await expectNoA11yViolations(page, "data sources panel (dark)");
  for (const kind of [messages.dataSourceOptionCsv, messages.dataSourceOptionWebsite]) {
    await panel.choose(kind);
    await expectNoA11yViolations(page, `${kind} form (dark)`, '[role="dialog"]');
    await panel.dialog.getByRole("button", { name: messages.dataSourcesDialogBack }).click();
  }
  await panel.choose(messages.dataSourceOptionWebsite);
  await expect(
    panel.dialog.getByText(
      fillTemplate(messages.dataSourceUrlHint, {
        pages: getPlanCapabilities("explorer").webScraperMaxPages,
        depth: getPlanCapabilities("explorer").webScraperMaxDepth,
      }),
    ),
  ).toBeVisible();
  await panel.dialog.getByLabel(messages.dataSourceUrlLabel).fill("ftp://files.example.com");
  await panel.submit(messages.dataSourceUrlSubmit).click();
  await expect(panel.error(messages.contextWebUrlInvalid)).toBeVisible();
});

/** Connects a provider from its form: the consent popup (the local double allows access) closes itself. */
async function connect(page: Page, panel: DataSourcesPanel, provider: string) {
  const button = panel.dialog.getByRole("button", {
    name: fillTemplate(messages.dataSourceConnect, { provider }),
  });
  await expect(button).toBeVisible();
  const popupOpened = page.waitForEvent("popup");
  await button.click();
  const popup = await popupOpened;
  // Connected, the callback page closes itself.
  await expect.poll(() => popup.isClosed(), { timeout: 30_000 }).toBe(true);
  const files = panel.dialog.getByRole("list", {
    name: fillTemplate(messages.dataSourceFilesList, { provider }),
  });
  await expect(files).toBeVisible();
  return files;
}

test("Notion: connect in a popup, add a page and a database, sync again, disconnect", async ({ page }) => {
  test.setTimeout(150_000);
  const { panel } = await openPanel(page, "explorer");
  await panel.choose(messages.dataSourceOptionNotion);
  await expect(
    panel.dialog.getByText(fillTemplate(messages.dataSourceConnectHint, { provider: "Notion" })),
  ).toBeVisible();
  await expectNoA11yViolations(page, "Notion, not connected", '[role="dialog"]');
  const files = await connect(page, panel, "Notion");
  await expect(
    panel.dialog.getByText(
      fillTemplate(messages.dataSourceConnectedAs, { provider: "Notion", name: "Acme Workspace" }),
    ),
  ).toBeVisible();
  await expect(
    panel.dialog.getByText(
      fillTemplate(messages.dataSourceFilesMax, { n: getPlanCapabilities("explorer").maxConnectorFiles }),
    ),
  ).toBeVisible();
  await expectNoA11yViolations(page, "Notion files", '[role="dialog"]');

  // Nothing ticked yet.
  await panel.submit(messages.dataSourceFilesSubmit).click();
  await expect(panel.error(messages.contextUploadFile)).toBeVisible();

  // The choice holds across searches.
  const search = panel.dialog.getByRole("searchbox", {
    name: fillTemplate(messages.dataSourceFilesSearch, { provider: "Notion" }),
  });
  await search.fill("catalog");
  await expect(files.getByRole("checkbox")).toHaveCount(1);
  await files.getByRole("checkbox", { name: /^Product Catalog/ }).click();
  await search.fill("");
  await files.getByRole("checkbox", { name: /^Onboarding Guide/ }).click();
  await expect(
    panel.dialog.getByText(fillTemplate(messages.dataSourceFilesSelected, { n: 2, max: 5 })),
  ).toBeVisible();
  await panel.submit(messages.dataSourceFilesSubmit).click();
  await expect(panel.dialog).toBeHidden();

  await expect(panel.row("Onboarding Guide")).toContainText(messages.contextTypeNotionPage);
  await expect(panel.row("Product Catalog")).toContainText(messages.contextTypeNotionDatabase);
  await expect(panel.status("Onboarding Guide")).toHaveText(messages.contextStatusSynced, {
    timeout: 60_000,
  });
  await expect(panel.status("Product Catalog")).toHaveText(messages.contextStatusSynced, { timeout: 60_000 });
  await expect(panel.row("Onboarding Guide")).toContainText(/Last synced/);

  await recordStatuses(page);
  await panel.action("Onboarding Guide", messages.dataSourceSyncAgain);
  await expect(
    toast(page, fillTemplate(messages.dataSourceSyncQueued, { name: "Onboarding Guide" })),
  ).toBeVisible();
  await expect(panel.status("Onboarding Guide")).toHaveText(messages.contextStatusSynced, {
    timeout: 60_000,
  });
  await expect
    .poll(() => statusesSeen(page, panel, "Onboarding Guide"))
    .toContain(messages.contextStatusPending);
  expect((await statusesSeen(page, panel, "Onboarding Guide")).at(-1)).toBe(messages.contextStatusSynced);

  await panel.choose(messages.dataSourceOptionNotion);
  await panel.dialog
    .getByRole("button", { name: fillTemplate(messages.dataSourceDisconnect, { provider: "Notion" }) })
    .click();
  await expect(
    toast(page, fillTemplate(messages.dataSourceDisconnected, { provider: "Notion" })),
  ).toBeVisible();
  await expect(
    panel.dialog.getByRole("button", {
      name: fillTemplate(messages.dataSourceConnect, { provider: "Notion" }),
    }),
  ).toBeVisible();
});

test("Google Drive on lite: one file at a time, read to Synced", async ({ page }) => {
  test.setTimeout(120_000);
  const { panel, appId } = await openPanel(page);
  await panel.choose(messages.dataSourceOptionDrive);
  const files = await connect(page, panel, "Google Drive");
  await expect(panel.dialog.getByText(messages.dataSourceFilesMaxOne)).toBeVisible();
  await expect(files.getByRole("checkbox", { name: /^Refund Policy/ })).toBeVisible();
  await files.getByRole("checkbox", { name: /^Price List/ }).click();
  // The plan's one file is chosen: the others wait.
  await expect(files.getByRole("checkbox", { name: /^Refund Policy/ })).toBeDisabled();
  await files.getByRole("checkbox", { name: /^Price List/ }).click();
  await expect(files.getByRole("checkbox", { name: /^Refund Policy/ })).toBeEnabled();
  await files.getByRole("checkbox", { name: /^Price List/ }).click();
  await panel.submit(messages.dataSourceFilesSubmit).click();
  await expect(panel.dialog).toBeHidden();
  await expect(panel.row("Price List")).toContainText(messages.contextTypeGoogleSheet);
  await expect(panel.status("Price List")).toHaveText(messages.contextStatusSynced, { timeout: 60_000 });
  expect((await itemsOf(appId)).map((i) => [i.name, i.type, i.status])).toEqual([
    ["Price List", "google sheet", "synced"],
  ]);
});

test("Website: the plan's reach is shown, and a private address ends in Error with the reason", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const { panel } = await openPanel(page);
  await panel.choose(messages.dataSourceOptionWebsite);
  await expect(
    panel.dialog.getByText(
      fillTemplate(messages.dataSourceUrlHint, {
        pages: LITE.webScraperMaxPages,
        depth: LITE.webScraperMaxDepth,
      }),
    ),
  ).toBeVisible();
  await panel.submit(messages.dataSourceUrlSubmit).click();
  await expect(panel.error(messages.contextWebUrlInvalid)).toBeVisible();
  await panel.dialog.getByLabel(messages.dataSourceUrlLabel).fill("http://127.0.0.1:9/");
  await panel.submit(messages.dataSourceUrlSubmit).click();
  await expect(panel.dialog).toBeHidden();
  const row = panel.list.getByRole("listitem");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(messages.contextTypeWebPage);
  await expect(row.locator("[data-status]")).toHaveText(messages.contextStatusError, { timeout: 60_000 });
  await expect(row).toContainText(messages.contextWebPrivateAddress);
});

test("Website: a local site is read live to Synced, its linked pages but not what robots.txt keeps out", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const siteUrl = demoSiteUrl();
  const { panel, appId } = await openPanel(page, "explorer");
  await recordStatuses(page);
  await panel.choose(messages.dataSourceOptionWebsite);
  await panel.dialog.getByLabel(messages.dataSourceUrlLabel).fill(siteUrl);
  await panel.submit(messages.dataSourceUrlSubmit).click();
  await expect(panel.dialog).toBeHidden();

  // Named by its host and path (here the bare host).
  const name = new URL(siteUrl).host;
  await expect(panel.row(name)).toContainText(messages.contextTypeWebPage);
  // The worker may be busy with other specs' sources first.
  await expectSyncedLive(page, panel, name, 120_000);
  await expect(panel.row(name)).toContainText(/Last synced/);
  expect(await itemsOf(appId)).toEqual([
    expect.objectContaining({ name, type: "web page", status: "synced", error: null }),
  ]);

  // Explorer crawls 3 deep: the start page, the pages it links to, and theirs; never /staff/
  // (robots.txt), never another host (localhost, although the same server).
  const all = await chunkTextOf(appId);
  for (const text of [DEMO_SITE_TEXT.home, DEMO_SITE_TEXT.menu, DEMO_SITE_TEXT.visit, DEMO_SITE_TEXT.story]) {
    expect(all).toContain(text);
  }
  expect(all).not.toContain(DEMO_SITE_TEXT.staff);
  expect(all).not.toContain(DEMO_SITE_TEXT.offsite);
});
