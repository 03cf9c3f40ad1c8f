import crypto from "node:crypto";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { fillTemplate } from "../../lib/text";
import { SpaceChatPage } from "./pages/space-chat-page";
import { expectNoA11yViolations } from "./support/axe";
import { createApp, createBuilder, sql } from "./support/db";
import { logInAsBuilder } from "./support/ui";

// The Versions dialog of a space app and the version history dialog per file:
// the latest 10 versions plus the current one with the count between, a file's history from the
// Versions dialog and from the changes dialog, its code at an old version, Preview and Go to
// message, keyboard and focus, axe in light and dark, 375 px, and the empty state.

const tag = () => crypto.randomUUID().slice(0, 6);
const sha256 = (s: string) => crypto.createHash("sha256").update(s, "utf8").digest("hex");

const home = (n: number) =>
  `export default function Home() {\n  return <main><h1>Wiki, take ${n}</h1></main>;\n}\n`;
const ABOUT_V1 = `export default function About() {\n  return <main><h1>About us</h1></main>;\n}\n`;
const ABOUT_V7 = `export default function About() {\n  return <main><h1>About the team</h1></main>;\n}\n`;
const request = (n: number) => `Change the wiki, take ${n}`;

type Seeded = { versionIds: string[]; answerIds: string[] };

/**
 * `count` versions written as lib/space/versions.ts writes them (the first a full listing, then only
 * what changed against the parent), each annotated on an answer of the conversation: pages/Home.jsx
 * changes in every one; pages/About.jsx is added in 1, changed in 7 and deleted in 12. The app's
 * current version is `current` (as after a revert), its files that version's.
 */
async function seedVersions(
  appId: string,
  accountId: string,
  count: number,
  current: number,
): Promise<Seeded> {
  const trees: Map<string, string>[] = [];
  const seeded: Seeded = { versionIds: [], answerIds: [] };
  let parent: string | null = null;
  let tree = new Map<string, string>();
  for (let n = 1; n <= count; n++) {
    const changes: { path: string; content: string | null; change: "added" | "modified" | "deleted" }[] = [
      { path: "pages/Home.jsx", content: home(n), change: n === 1 ? "added" : "modified" },
    ];
    if (n === 1) changes.push({ path: "pages/About.jsx", content: ABOUT_V1, change: "added" });
    if (n === 7) changes.push({ path: "pages/About.jsx", content: ABOUT_V7, change: "modified" });
    if (n === 12) changes.push({ path: "pages/About.jsx", content: null, change: "deleted" });
    tree = new Map(tree);
    for (const c of changes) {
      if (c.content === null) {
        tree.delete(c.path);
        continue;
      }
      tree.set(c.path, c.content);
      await sql(
        "INSERT INTO space_blobs (app_id, hash, content, size) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
        [appId, sha256(c.content), c.content, Buffer.byteLength(c.content)],
      );
    }
    trees.push(tree);
    await sql("INSERT INTO chat_messages (app_id, role, content) VALUES ($1, 'user', $2)", [
      appId,
      request(n),
    ]);
    const [answer] = await sql<{ id: string }>(
      "INSERT INTO chat_messages (app_id, role, content) VALUES ($1, 'assistant', $2) RETURNING id",
      [appId, `Done: take ${n}`],
    );
    const counts = { added: 0, modified: 0, deleted: 0 };
    for (const c of changes) counts[c.change] += 1;
    const [version]: { id: string }[] = await sql<{ id: string }>(
      `INSERT INTO versions (app_id, number, parent_id, message_id, kind, user_request, metadata,
         snapshot_distance, file_count, created_by_account_id, created_at)
       VALUES ($1, $2, $3, $4, 'chat', $5, $6, $7, $8, $9, now() - make_interval(mins => $10::int))
       RETURNING id`,
      [
        appId,
        n,
        parent,
        answer!.id,
        request(n),
        JSON.stringify(counts),
        n - 1,
        tree.size,
        accountId,
        count - n,
      ],
    );
    for (const c of changes) {
      await sql(
        "INSERT INTO version_files (version_id, app_id, path, blob_hash, change) VALUES ($1, $2, $3, $4, $5)",
        [version!.id, appId, c.path, c.content === null ? null : sha256(c.content), c.change],
      );
    }
    await sql("UPDATE chat_messages SET version_id = $1 WHERE id = $2", [version!.id, answer!.id]);
    seeded.versionIds.push(version!.id);
    seeded.answerIds.push(answer!.id);
    parent = version!.id;
  }
  for (const [path, content] of trees[current - 1]!) {
    await sql("INSERT INTO app_files (app_id, path, blob_hash) VALUES ($1, $2, $3)", [
      appId,
      path,
      sha256(content),
    ]);
  }
  await sql("INSERT INTO space_heads (app_id, version_id, revision) VALUES ($1, $2, 1)", [
    appId,
    seeded.versionIds[current - 1],
  ]);
  return seeded;
}

class VersionsDialog {
  readonly dialog: Locator;
  readonly rows: Locator;
  constructor(readonly page: Page) {
    this.dialog = page.getByRole("dialog", { name: messages.versionsTitle });
    this.rows = this.dialog.locator("li[data-version-number]");
  }
  get opener(): Locator {
    return this.page.getByRole("button", { name: messages.versionsButton, exact: true });
  }
  row(n: number): Locator {
    return this.dialog.locator(`li[data-version-number="${n}"]`);
  }
}

const historyDialog = (page: Page, name: string) =>
  page.getByRole("dialog", { name: fillTemplate(messages.fileHistoryTitle, { name }) });

/** Nothing on the page is wider than the screen, and the open dialogs fit it. */
async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    screen: window.innerWidth,
    dialogs: [...document.querySelectorAll('[role="dialog"]')].map((d) => {
      const box = d.getBoundingClientRect();
      return { right: box.right, left: box.left, scroll: d.scrollWidth, client: d.clientWidth };
    }),
  }));
  expect(widths.page, `page width on ${where}`).toBeLessThanOrEqual(widths.screen);
  for (const d of widths.dialogs) {
    expect(d.left, where).toBeGreaterThanOrEqual(0);
    expect(d.right, where).toBeLessThanOrEqual(widths.screen);
    expect(d.scroll, `dialog content width on ${where}`).toBeLessThanOrEqual(d.client);
  }
}

test("the Versions dialog: the latest 10 and the current one with the count between, a file's history and its code at an old version, Preview, Go to message, keyboard, axe, 375 px", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, { type: "space", header: `Wiki ${tag()}` });
  // 14 versions; the app is back at version 2: versions 14 to 5, then 2 between, then the current one.
  const seeded = await seedVersions(appId, builder.accountId!, 14, 2);
  await logInAsBuilder(page, builder);
  const chat = new SpaceChatPage(page, appId);
  await chat.goto();
  const versions = new VersionsDialog(page);
  await expect(chat.messages.first()).toBeVisible({ timeout: 20_000 });

  // Opened by keyboard; Escape closes it and focus is back on the button.
  await versions.opener.focus();
  await page.keyboard.press("Enter");
  await expect(versions.dialog).toBeVisible();
  await expect(versions.rows).toHaveCount(11, { timeout: 20_000 });
  expect(
    await versions.rows.evaluateAll((rows) => rows.map((r) => r.getAttribute("data-version-number"))),
  ).toEqual(["14", "13", "12", "11", "10", "9", "8", "7", "6", "5", "2"]);
  const gaps = versions.dialog.getByTestId("versions-gap");
  await expect(gaps).toHaveText([
    fillTemplate(messages.versionsEarlier, { n: 2 }),
    messages.versionsEarlierOne,
  ]);
  // Between version 5 and the current one, each row with its number, request and date.
  await expect(versions.dialog.locator("ol > li").nth(10)).toHaveAttribute("data-testid", "versions-gap");
  const currentRow = versions.row(2);
  await expect(currentRow).toHaveAttribute("aria-current", "true");
  await expect(currentRow.getByText(messages.versionsCurrent, { exact: true })).toBeVisible();
  await expect(
    currentRow.getByRole("heading", { name: fillTemplate(messages.versionsNumber, { n: 2 }) }),
  ).toBeVisible();
  await expect(currentRow.getByText(request(2), { exact: true })).toBeVisible();
  // "the latest version has no preview": the current one has none, the others do.
  await expect(currentRow.getByRole("button", { name: messages.versionPreview })).toHaveCount(0);
  await expect(versions.row(14).getByRole("button", { name: messages.versionPreview })).toBeVisible();
  await expectNoA11yViolations(page, "Versions dialog, 1280 light");
  await page.emulateMedia({ colorScheme: "dark" });
  await expectNoA11yViolations(page, "Versions dialog, 1280 dark");
  await page.emulateMedia({ colorScheme: "light" });
  await page.keyboard.press("Escape");
  await expect(versions.dialog).toBeHidden();
  await expect(versions.opener).toBeFocused();

  // A file's history from a version's changed files: the versions that changed it, newest first.
  await versions.opener.click();
  const row12 = versions.row(12);
  await row12.getByRole("button", { name: messages.versionsChangedFiles }).click();
  const aboutHistory = row12.getByRole("button", {
    name: fillTemplate(messages.fileHistoryOpen, { path: "pages/About.jsx" }),
  });
  await expect(row12.locator('li[data-path="pages/About.jsx"]')).toContainText(messages.diffStatusDeleted);
  await aboutHistory.click();
  const about = historyDialog(page, "About.jsx");
  await expect(about).toBeVisible();
  const entries = about.getByTestId("file-history-list").getByRole("button");
  await expect(entries).toHaveCount(3);
  expect(
    await entries.evaluateAll((b) =>
      b.map((e) => [e.getAttribute("data-version-number"), e.getAttribute("data-change")]),
    ),
  ).toEqual([
    ["12", "deleted"],
    ["7", "modified"],
    ["1", "added"],
  ]);
  await expect(entries.nth(2)).toContainText(request(1));
  // The newest is shown first: it deleted the file; Changes shows what it removed.
  await expect(entries.first()).toHaveAttribute("aria-pressed", "true");
  await expect(about.getByText(messages.codeDeleted)).toBeVisible();
  await about.getByRole("button", { name: messages.codeViewChanges, exact: true }).click();
  await expect(about.getByTestId("changes-diff").locator('tr[data-line="removed"]')).toContainText([
    "About the team",
  ]);
  // The code at version 1, read-only, as it was written then.
  await entries.nth(2).click();
  await expect(entries.nth(2)).toHaveAttribute("aria-pressed", "true");
  const code = about.getByRole("region", {
    name: fillTemplate(messages.codeViewLabel, { path: "pages/About.jsx", n: 1 }),
  });
  await expect(code).toContainText("About us");
  // The Code panel's editor, read-only: every line as written, and typing changes nothing.
  expect((await code.locator(".cm-line").allTextContents()).join("\n")).toBe(ABOUT_V1);
  const text = code.getByRole("textbox");
  await expect(text).toHaveAttribute("aria-readonly", "true");
  await text.click();
  await page.keyboard.type("typed");
  await expect(code).not.toContainText("typed");
  await expectNoA11yViolations(page, "file history dialog, 1280 light");
  await page.emulateMedia({ colorScheme: "dark" });
  await expectNoA11yViolations(page, "file history dialog, 1280 dark");
  await page.emulateMedia({ colorScheme: "light" });
  // Escape closes the history only; focus is back on its History button, then on the Versions button.
  await page.keyboard.press("Escape");
  await expect(about).toBeHidden();
  await expect(versions.dialog).toBeVisible();
  await expect(aboutHistory).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(versions.dialog).toBeHidden();
  await expect(versions.opener).toBeFocused();

  // Preview: the chat's own preview of that version; the dialog closes to show it.
  await versions.opener.click();
  await versions.row(13).getByRole("button", { name: messages.versionPreview }).click();
  await expect(versions.dialog).toBeHidden();
  await expect(page.getByText(messages.chatPreviewingEarlier)).toBeVisible();
  await expect(chat.previewFrame).toHaveAttribute(
    "title",
    fillTemplate(messages.previewFrameTitle, { number: 13 }),
  );
  await versions.opener.click();
  await expect(versions.row(13).getByRole("button", { name: messages.versionPreviewing })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await page.keyboard.press("Escape");
  await chat.backToCurrent.click();

  // Go to message: ?messageId= of the version's answer; the chat scrolls to it and focus goes there.
  await versions.opener.click();
  await versions.row(2).getByRole("button", { name: messages.versionsGoToMessage }).click();
  await expect(page).toHaveURL(new RegExp(`\\?messageId=${seeded.answerIds[1]}$`));
  const target = chat.message(seeded.answerIds[1]!);
  await expect(target).toBeFocused({ timeout: 20_000 });
  await expect(target).toBeInViewport();

  // From the changes dialog's file tree: the selected file's History.
  await chat.button(target, messages.chatViewChanges).click();
  const changes = page.getByTestId("changes-dialog");
  await expect(changes.getByRole("treeitem", { name: /Home\.jsx/ })).toHaveAttribute("aria-selected", "true");
  const homeHistoryButton = changes.getByRole("button", {
    name: fillTemplate(messages.fileHistoryOpen, { path: "pages/Home.jsx" }),
  });
  await homeHistoryButton.click();
  const homeHistory = historyDialog(page, "Home.jsx");
  await expect(homeHistory.getByTestId("file-history-list").getByRole("button")).toHaveCount(14);
  await homeHistory.locator('button[data-version-number="3"]').click();
  await expect(homeHistory.getByTestId("code-view")).toContainText("Wiki, take 3");
  await page.keyboard.press("Escape");
  await expect(homeHistoryButton).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(changes).toBeHidden();

  // 375 px, light and dark: nothing scrolls sideways, the dialogs fit the screen.
  await page.setViewportSize({ width: 375, height: 800 });
  await chat.goto();
  await expect(chat.messages.first()).toBeVisible({ timeout: 20_000 });
  await expectNoSidewaysScroll(page, "space editor, 375");
  await versions.opener.click();
  await expect(versions.rows).toHaveCount(11, { timeout: 20_000 });
  await expectNoSidewaysScroll(page, "Versions dialog, 375");
  await expectNoA11yViolations(page, "Versions dialog, 375 light");
  await versions.row(14).getByRole("button", { name: messages.versionsChangedFiles }).click();
  await versions
    .row(14)
    .getByRole("button", { name: fillTemplate(messages.fileHistoryOpen, { path: "pages/Home.jsx" }) })
    .click();
  await expect(historyDialog(page, "Home.jsx").getByTestId("code-view")).toContainText("Wiki, take 14");
  await expectNoSidewaysScroll(page, "file history dialog, 375");
  await page.emulateMedia({ colorScheme: "dark" });
  await expectNoA11yViolations(page, "file history dialog, 375 dark");
});

test("a space app with no versions: 'No versions found for this app'", async ({ page }) => {
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, { type: "space", header: `Empty ${tag()}` });
  await logInAsBuilder(page, builder);
  const chat = new SpaceChatPage(page, appId);
  await chat.goto();
  await expect(page.getByRole("heading", { name: messages.chatEmptyTitle })).toBeVisible({ timeout: 20_000 });
  const versions = new VersionsDialog(page);
  await versions.opener.click();
  await expect(versions.dialog.getByText(messages.versionsNoneFound, { exact: true })).toBeVisible({
    timeout: 20_000,
  });
  await expect(versions.rows).toHaveCount(0);
  await expectNoA11yViolations(page, "empty Versions dialog, light");
  await page.emulateMedia({ colorScheme: "dark" });
  await expectNoA11yViolations(page, "empty Versions dialog, dark");
  await page.keyboard.press("Escape");
  await expect(versions.opener).toBeFocused();
});

test("the file history dialog's errors: the history or the code fails to load and is retried; a file with no history left", async ({
  page,
}) => {
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, { type: "space", header: `Errors ${tag()}` });
  await seedVersions(appId, builder.accountId!, 3, 3);
  await logInAsBuilder(page, builder);
  const chat = new SpaceChatPage(page, appId);
  await chat.goto();
  await expect(chat.messages.first()).toBeVisible({ timeout: 20_000 });
  const versions = new VersionsDialog(page);
  await versions.opener.click();
  const row1 = versions.row(1);
  await row1.getByRole("button", { name: messages.versionsChangedFiles }).click();
  const historyOf = (path: string) =>
    row1.getByRole("button", { name: fillTemplate(messages.fileHistoryOpen, { path }) });
  await expect(historyOf("pages/Home.jsx")).toBeVisible({ timeout: 20_000 });

  // The history cannot be read (the connection fails): 'Failed to load file version history', Retry.
  const historyUrl = `**/api/apps/${appId}/files/history?*`;
  await page.route(historyUrl, (route) => route.abort("connectionrefused"));
  await historyOf("pages/Home.jsx").click();
  const home = historyDialog(page, "Home.jsx");
  await expect(home.getByRole("alert")).toContainText(messages.fileHistoryFailed);
  await page.unroute(historyUrl);

  // The code cannot be read: 'Could not load code. Please try again.', Retry.
  const fileUrl = `**/api/apps/${appId}/versions/*/file?*`;
  await page.route(fileUrl, (route) => route.abort("connectionrefused"));
  await home.getByRole("button", { name: messages.retry }).click();
  await expect(home.getByTestId("file-history-list").getByRole("button")).toHaveCount(3);
  await expect(home.getByRole("alert")).toContainText(messages.codeLoadFailed);
  await page.unroute(fileUrl);
  await home.getByRole("button", { name: messages.retry }).click();
  await expect(home.getByTestId("code-view")).toContainText("Wiki, take 3");
  await page.keyboard.press("Escape");
  await expect(home).toBeHidden();

  // The file's history is gone meanwhile (its version rows removed behind the page's back).
  await sql("DELETE FROM version_files WHERE app_id = $1 AND path = 'pages/About.jsx'", [appId]);
  await historyOf("pages/About.jsx").click();
  await expect(historyDialog(page, "About.jsx").getByText(messages.fileHistoryNoneFound)).toBeVisible();
});

test("the chat names each answer's version as the Versions dialog does: Version N, not its id", async ({
  page,
}) => {
  const builder = await createBuilder({ plan: "moon", isAdmin: true });
  const { appId } = await createApp(builder, { type: "space", header: `Wiki ${tag()}` });
  const seeded = await seedVersions(appId, builder.accountId!, 3, 3);
  await logInAsBuilder(page, builder);
  const chat = new SpaceChatPage(page, appId);
  await chat.goto();
  for (const [i, answerId] of seeded.answerIds.entries()) {
    const line = chat.message(answerId).getByTestId("message-version-line");
    await expect(line).toHaveText(fillTemplate(messages.versionsNumber, { n: i + 1 }), { timeout: 20_000 });
    await expect(line).not.toContainText(seeded.versionIds[i]!);
  }
  const versions = new VersionsDialog(page);
  await versions.opener.click();
  await expect(
    versions.row(2).getByRole("heading", { name: fillTemplate(messages.versionsNumber, { n: 2 }) }),
  ).toBeVisible();
});
