import crypto from "node:crypto";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { ISSUES_MINIMIZE_DELAY_MS, SPACE_PROMPT_FILES_BUDGET } from "../../lib/constants";
import { messages } from "../../lib/messages";
import { fillTemplate } from "../../lib/text";
import { SpaceChatPage } from "./pages/space-chat-page";
import { expectNoA11yViolations, SPACE_PREVIEW_FRAME } from "./support/axe";
import { createApp, createBuilder, type SeededUser, sql } from "./support/db";
import { RUN_SLOW_WORD } from "./support/model-responder";
import { logInAsBuilder } from "./support/ui";

// The floating issues panel of the space editor ("Issues panel: minimized or
// expanded; auto-expands when the error count changes, minimizes when the last issue is
// suppressed, clears after a fix once loading ends (minimize delay 1 s)"), fed by the preview of
// versions whose files break at run time or do not build, and its "Ask to fix" hand-off to the
// composer. And the admin's "context file counts and missing-file warning" on the
// answers of an app with a file over the prompt's budget, a failed answer's included.

const tag = () => crypto.randomUUID().slice(0, 6);
const sha256 = (s: string) => crypto.createHash("sha256").update(s, "utf8").digest("hex");

/**
 * A version of the app's files annotated on an exchange of the conversation (a user message and
 * the answer that made it), written as lib/space/versions.ts writes a first version: a full
 * listing. The app's current files are untouched: restore it to make it current.
 */
async function seedVersionMessage(
  appId: string,
  accountId: string,
  request: string,
  files: Record<string, string>,
): Promise<{ versionId: string; messageId: string }> {
  for (const content of Object.values(files)) {
    await sql(
      `INSERT INTO space_blobs (app_id, hash, content, size) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
      [appId, sha256(content), content, Buffer.byteLength(content)],
    );
  }
  const [version] = await sql<{ id: string }>(
    `INSERT INTO versions (app_id, number, kind, snapshot_distance, file_count, created_by_account_id, user_request, metadata)
     VALUES ($1, (SELECT coalesce(max(number), 0) + 1 FROM versions WHERE app_id = $1), 'chat', 0, $2, $3, $4, $5)
     RETURNING id`,
    [
      appId,
      Object.keys(files).length,
      accountId,
      request,
      JSON.stringify({ added: Object.keys(files), modified: [], deleted: [] }),
    ],
  );
  for (const [path, content] of Object.entries(files)) {
    await sql(
      `INSERT INTO version_files (version_id, app_id, path, blob_hash, change) VALUES ($1, $2, $3, $4, 'added')`,
      [version!.id, appId, path, sha256(content)],
    );
  }
  await sql(`INSERT INTO chat_messages (app_id, role, content) VALUES ($1, 'user', $2)`, [appId, request]);
  const [answer] = await sql<{ id: string }>(
    `INSERT INTO chat_messages (app_id, role, content, version_id) VALUES ($1, 'assistant', $2, $3) RETURNING id`,
    [appId, `Here it is: ${request}.`, version!.id],
  );
  await sql("UPDATE versions SET message_id = $1 WHERE id = $2", [answer!.id, version!.id]);
  return { versionId: version!.id, messageId: answer!.id };
}

/** Makes a seeded version the app's current one, through the app's own restore route. */
async function restore(page: Page, appId: string, seeded: { versionId: string; messageId: string }) {
  const res = await page.request.post(`/api/apps/${appId}/versions/${seeded.versionId}/restore`, {
    data: { messageId: seeded.messageId },
  });
  expect(res.status()).toBe(200);
}

/** A page that breaks at run time: an error once it has rendered, and one more at each Save. */
const RUNTIME_BROKEN = {
  "pages/Home.jsx": `import { useEffect, useState } from "react";
export default function Home() {
  const [saves, setSaves] = useState(0);
  useEffect(() => {
    const timer = setTimeout(() => {
      throw new Error("The chart has no data");
    }, 0);
    return () => clearTimeout(timer);
  }, []);
  return (
    <main className="p-6">
      <h1 className="text-2xl font-bold">Broken dashboard</h1>
      <button
        type="button"
        onClick={() => {
          setSaves(saves + 1);
          throw new Error(\`Save broke \${saves + 1}\`);
        }}
      >
        Save
      </button>
    </main>
  );
}
`,
};

/** A component that does not parse: the version does not build. */
const BUILD_BROKEN = {
  "pages/Home.jsx":
    'import Card from "@/components/Card";\nexport default function Home() { return <Card />; }\n',
  "components/Card.jsx": "export default function Card() {\n  return <div>{</div>;\n}\n",
};

const CLEAN = {
  "pages/Home.jsx":
    'export default function Home() {\n  return <h1 className="text-2xl font-bold">All good here</h1>;\n}\n',
};

/** The floating issues panel (components/space/chat/issues-panel.tsx). */
class IssuesPanel {
  readonly region: Locator;
  readonly toggle: Locator;
  readonly list: Locator;
  readonly fixed: Locator;

  constructor(readonly page: Page) {
    this.region = page.getByRole("region", { name: messages.issuesTitle });
    this.toggle = this.region.getByRole("button", {
      name: new RegExp(`(${messages.issuesMinimize}|${messages.issuesShow})$`),
    });
    this.list = this.region.getByRole("listitem");
    this.fixed = page.getByRole("status").filter({ hasText: messages.issuesFixed });
  }

  count(n: number): string {
    return n === 1 ? messages.issuesCountOne : fillTemplate(messages.issuesCount, { n });
  }

  async expectExpanded(n: number): Promise<void> {
    await expect(this.toggle).toHaveAttribute("aria-expanded", "true");
    // Its name: the visible count first, then what it does.
    await expect(this.toggle).toHaveAccessibleName(
      new RegExp(`^${this.count(n)}\\s*${messages.issuesMinimize}$`),
    );
    await expect(this.list).toHaveCount(n);
  }

  async expectMinimized(n: number): Promise<void> {
    await expect(this.toggle).toHaveAttribute("aria-expanded", "false");
    await expect(this.toggle).toHaveAccessibleName(
      new RegExp(`^${this.count(n)}\\s*${messages.issuesShow}$`),
    );
    await expect(this.list.first()).toBeHidden();
  }

  issue(title: string): Locator {
    return this.list.filter({ hasText: title });
  }

  dismiss(title: string): Locator {
    return this.region.getByRole("button", { name: fillTemplate(messages.issuesDismissOne, { title }) });
  }

  askToFix(title: string): Locator {
    return this.issue(title).getByRole("button", { name: messages.issuesFix });
  }
}

/** axe on the builder's page; the preview frame shows the builder's own app, not ours. */
const expectNoViolations = (page: Page, where: string) =>
  expectNoA11yViolations(page, where, undefined, SPACE_PREVIEW_FRAME);

/**
 * Records in the page when the "No more issues" status shows and goes, when the answer's Stop
 * button goes (the chat is busy at least until then), and when the preview's loading notice goes,
 * on the page's own clock.
 */
async function watchFixed(page: Page): Promise<void> {
  await page.evaluate(
    ({ fixedText, stopName, loadingText }) => {
      const log: { what: string; at: number }[] = [];
      (window as unknown as { fixedLog: typeof log }).fixedLog = log;
      const seen = { fixed: false, stop: false, loading: false };
      const status = (text: string) =>
        [...document.querySelectorAll('[role="status"]')].some((el) => el.textContent?.trim() === text);
      const check = () => {
        const now = {
          fixed: status(fixedText),
          stop: [...document.querySelectorAll("button")].some(
            (b) => b.textContent?.trim() === stopName || b.getAttribute("aria-label") === stopName,
          ),
          loading: status(loadingText),
        };
        for (const what of ["fixed", "stop", "loading"] as const) {
          if (now[what] !== seen[what])
            log.push({ what: `${what}-${now[what] ? "shown" : "gone"}`, at: performance.now() });
          seen[what] = now[what];
        }
      };
      check();
      new MutationObserver(check).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    },
    { fixedText: messages.issuesFixed, stopName: messages.chatStop, loadingText: messages.previewLoading },
  );
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const fixedLog = (page: Page) =>
  page.evaluate(() => (window as unknown as { fixedLog: { what: string; at: number }[] }).fixedLog);
const lastAt = (log: { what: string; at: number }[], what: string) =>
  log.findLast((e) => e.what === what)?.at ?? Number.NaN;

/** The toolbar's Preview toggle of phones (the messages' Preview buttons have a title). */
const toolbarPreview = (page: Page) =>
  page
    .getByRole("button", { name: messages.editorPreview, exact: true })
    .and(page.locator("button:not([title])"));

async function spaceAppOf(builder: SeededUser) {
  const { appId } = await createApp(builder, { type: "space", header: `Issues ${tag()}` });
  return appId;
}

test("runtime errors: the panel expands, minimizes, re-expands when the count changes, hides when the last is dismissed; Ask to fix, and the fix clears it 1 s after the answer", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const builder = await createBuilder({ plan: "explorer" });
  const appId = await spaceAppOf(builder);
  await logInAsBuilder(page, builder);
  const broken = await seedVersionMessage(appId, builder.accountId!, "A dashboard", RUNTIME_BROKEN);
  await restore(page, appId, broken);

  const chat = new SpaceChatPage(page, appId);
  const panel = new IssuesPanel(page);
  await chat.goto();
  await chat.expectPreviewHeading("Broken dashboard");

  // The first error: the count changed (0 to 1), so the panel opens by itself.
  await panel.expectExpanded(1);
  await expect(panel.issue("The chart has no data")).toContainText(messages.issuesRuntime);
  await expect(panel.issue("The chart has no data")).toContainText("Home: The chart has no data");
  // Minimized by hand (keyboard), to a count.
  await panel.toggle.focus();
  await page.keyboard.press("Enter");
  await panel.expectMinimized(1);
  await expect(panel.toggle).toBeFocused();

  // A new error in the app: the count changes (1 to 2), the panel opens again.
  await chat.preview.getByRole("button", { name: "Save" }).click();
  await panel.expectExpanded(2);
  await expect(panel.issue("Save broke 1")).toBeVisible();
  await expectNoViolations(page, "issues panel expanded, 1280 light");
  await page.emulateMedia({ colorScheme: "dark" });
  await expectNoViolations(page, "issues panel expanded, 1280 dark");
  await page.emulateMedia({ colorScheme: "light" });

  // Dismissing one leaves the other, still expanded; dismissing the last minimizes (and hides) it.
  await panel.dismiss("Save broke 1").click();
  await panel.expectExpanded(1);
  await panel.dismiss("The chart has no data").click();
  await expect(panel.region).toHaveCount(0);
  // A dismissed issue stays hidden while the preview reports it; a new one opens the panel.
  await chat.preview.getByRole("button", { name: "Save" }).click();
  await panel.expectExpanded(1);
  await expect(panel.issue("Save broke 2")).toBeVisible();

  // Ask to fix: the request goes into the composer, focused, ready to send.
  await panel.askToFix("Save broke 2").click();
  const request = fillTemplate(messages.issuesFixPrompt, {
    where: fillTemplate(messages.issuesFixWhere, { component: "Home" }),
    title: "Save broke 2",
    details: "",
  }).trim();
  await expect(chat.composer).toBeFocused();
  // The request, then the error's details.
  expect(await chat.composer.inputValue()).toMatch(new RegExp(`^${escapeRe(request)}\\s+\\S`));

  // Sent: the answer rewrites the page; the errors go away by themselves (a fix). The panel says
  // so until the chat is done and the minimize delay has passed, then clears.
  await watchFixed(page);
  // The new answer by its place (after the seeded one): a streamed answer's id changes once stored.
  const answer = chat.answers.nth(1);
  await chat.composer.press("Enter");
  await expect(answer).toHaveAttribute("data-status", "complete", { timeout: 60_000 });
  await expect(chat.previewHeading()).toHaveText(new RegExp(`^${escapeRe(request)}`), { timeout: 30_000 });
  await expect(panel.fixed).toHaveCount(0, { timeout: 10_000 });
  await expect(panel.region).toHaveCount(0);
  const log = await fixedLog(page);
  expect(log.map((e) => e.what)).toEqual(expect.arrayContaining(["fixed-shown", "fixed-gone", "stop-gone"]));
  // Gone no sooner than the delay after it showed, and after the answer ended.
  expect(lastAt(log, "fixed-gone") - lastAt(log, "fixed-shown")).toBeGreaterThanOrEqual(
    ISSUES_MINIMIZE_DELAY_MS - 100,
  );
  expect(lastAt(log, "fixed-gone") - lastAt(log, "stop-gone")).toBeGreaterThanOrEqual(
    ISSUES_MINIMIZE_DELAY_MS - 100,
  );
});

test("a version that does not build: its build error opens the panel; a fix is cleared only once the chat is done", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const builder = await createBuilder({ plan: "explorer" });
  const appId = await spaceAppOf(builder);
  await logInAsBuilder(page, builder);
  const clean = await seedVersionMessage(appId, builder.accountId!, "A clean page", CLEAN);
  const noBuild = await seedVersionMessage(appId, builder.accountId!, "A card", BUILD_BROKEN);
  const broken = await seedVersionMessage(appId, builder.accountId!, "A dashboard", RUNTIME_BROKEN);
  await restore(page, appId, broken);

  const chat = new SpaceChatPage(page, appId);
  const panel = new IssuesPanel(page);
  await chat.goto();
  await panel.expectExpanded(1);
  await panel.toggle.click();
  await panel.expectMinimized(1);

  // Previewing the version that does not build: its build error, and the panel opens.
  await chat.previewButton(chat.message(noBuild.messageId)).click();
  await expect(page.getByText(messages.previewBuildFailed)).toBeVisible({ timeout: 30_000 });
  await panel.expectExpanded(1);
  const card = panel.list.first();
  await expect(card).toContainText(messages.issuesBuild);
  await expect(card).toContainText("Card: ");
  await expect(panel.issue("The chart has no data")).toHaveCount(0);

  // Phones: the preview (and its panel) behind the toolbar's Preview, dark.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.emulateMedia({ colorScheme: "dark" });
  await toolbarPreview(page).click();
  await panel.expectExpanded(1);
  const box = await panel.region.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(375);
  await expectNoViolations(page, "issues panel expanded, 375 dark");
  await toolbarPreview(page).click();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "light" });

  // An answer streams (slowly; it would be long). Meanwhile the clean version is previewed: its
  // issues are gone, but the fix is judged only once the chat is done.
  await watchFixed(page);
  await chat.ask(`Write a long page ${RUN_SLOW_WORD}`);
  await expect(chat.stop).toBeVisible();
  await chat.previewButton(chat.message(clean.messageId)).click();
  await chat.expectPreviewHeading("All good here");
  await expect(panel.fixed).toBeVisible();
  await page.waitForTimeout(ISSUES_MINIMIZE_DELAY_MS * 2);
  await expect(chat.stop).toBeVisible();
  await expect(panel.fixed).toBeVisible();
  // Stopped: the chat goes back to the current version, whose error comes back.
  await chat.stop.click();
  await expect(chat.answers.nth(3)).toHaveAttribute("data-status", "incomplete", { timeout: 30_000 });
  await chat.expectPreviewHeading("Broken dashboard");
  await panel.expectExpanded(1);
  await expect(panel.issue("The chart has no data")).toBeVisible();
  const log = await fixedLog(page);
  expect(lastAt(log, "stop-gone") - lastAt(log, "fixed-shown")).toBeGreaterThanOrEqual(
    ISSUES_MINIMIZE_DELAY_MS * 2,
  );
});

// The preview's own loading is loading too: the frame passes `loading` as the chat's busy state
// or its preview's (VersionPreview reports it), so a fix is judged - "No more issues" shown, then
// cleared - only once the new version's preview has loaded; were that version still broken, the
// panel would otherwise say "No more issues" and then show its errors again.
test("a fix is judged once the new version's preview has loaded", async ({ page }) => {
  test.setTimeout(180_000);
  const builder = await createBuilder({ plan: "explorer" });
  const appId = await spaceAppOf(builder);
  await logInAsBuilder(page, builder);
  await restore(
    page,
    appId,
    await seedVersionMessage(appId, builder.accountId!, "A dashboard", RUNTIME_BROKEN),
  );
  const chat = new SpaceChatPage(page, appId);
  const panel = new IssuesPanel(page);
  await chat.goto();
  await panel.expectExpanded(1);
  await watchFixed(page);
  await chat.ask("A clean page for the team");
  await expect(chat.answers.nth(1)).toHaveAttribute("data-status", "complete", { timeout: 60_000 });
  await chat.expectPreviewHeading("A clean page for the team");
  // Still shown once the new preview has run, for the delay.
  await expect(panel.fixed).toBeVisible();
  await expect(panel.fixed).toHaveCount(0, { timeout: 10_000 });
  const log = await fixedLog(page);
  expect(lastAt(log, "fixed-gone") - lastAt(log, "loading-gone")).toBeGreaterThanOrEqual(
    ISSUES_MINIMIZE_DELAY_MS - 100,
  );
});

test("admins see how many of the app's files each answer's prompt held and which were left out; a failed answer keeps its files", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const builder = await createBuilder({ plan: "explorer", isAdmin: true });
  const appId = await spaceAppOf(builder);
  await logInAsBuilder(page, builder);
  // A file over the prompt's budget: the assistant is told its name only.
  const big = `// ${"x".repeat(SPACE_PROMPT_FILES_BUDGET)}\nexport const notes = [];\n`;
  const seeded = await seedVersionMessage(appId, builder.accountId!, "A notes page", {
    "pages/Home.jsx":
      'export default function Home() {\n  return (\n    <main className="p-6">\n      <h1 className="text-2xl font-bold">Notes</h1>\n    </main>\n  );\n}\n',
    "components/Notes.jsx": big,
  });
  await restore(page, appId, seeded);

  const chat = new SpaceChatPage(page, appId);
  await chat.goto();
  // The answers by their place (the seeded one first): a streamed answer's id changes once stored.
  const changed = chat.answers.nth(1);
  const failed = chat.answers.nth(2);
  await chat.ask("change the heading to Team notes");
  await expect(changed).toHaveAttribute("data-status", "complete", { timeout: 60_000 });
  // Its files show once the answer is stored (the chat is no longer busy).
  await expect(changed.getByTestId("message-context-files")).toBeVisible();
  await chat.ask(`Please fail this time ${tag()}`);
  await expect(failed).toHaveAttribute("data-status", "failed", { timeout: 60_000 });

  // On each answer: 1 of the app's 2 files in the prompt, 1 left out - the failed one's too.
  const counts = fillTemplate(messages.chatFilesUsedOf, { n: 1, m: 2 });
  const leftOut = fillTemplate(messages.chatFilesLeftOut, { n: 1 });
  for (const answer of [changed, failed]) {
    const button = answer.getByTestId("message-context-files");
    await expect(button).toContainText(counts);
    await expect(button.getByTestId("message-context-files-left-out")).toHaveText(leftOut);
  }

  await failed.getByTestId("message-context-files").click();
  const dialog = page.getByRole("dialog", { name: messages.contextFilesTitle });
  await expect(dialog.getByTestId("context-files-coverage")).toHaveText(
    fillTemplate(messages.contextFilesCoverage, { n: 1, m: 2 }),
  );
  await expect(dialog.getByRole("row", { name: /pages\/Home\.jsx/ })).toContainText("current files");
  await expect(dialog.getByTestId("context-files-total")).toHaveText(
    new RegExp(`^${fillTemplate(messages.contextFilesTotalOne, { tokens: "[\\d,]+" })}$`),
  );
  const missing = dialog.getByRole("region", { name: messages.contextFilesMissingOne });
  await expect(missing).toContainText(messages.contextFilesMissingTextOne);
  await expect(missing.getByRole("listitem")).toHaveText([
    new RegExp(
      `components/Notes\\.jsx\\s*${fillTemplate(messages.contextFilesMissingTokens, {
        tokens: Math.ceil(big.length / 4).toLocaleString("en-US"),
      })}`,
    ),
  ]);
  await expectNoViolations(page, "context files dialog, admin, light");
  await page.emulateMedia({ colorScheme: "dark" });
  await expectNoViolations(page, "context files dialog, admin, dark");
  await page.emulateMedia({ colorScheme: "light" });
  await page.keyboard.press("Escape");
  await expect(failed.getByTestId("message-context-files")).toBeFocused();

  // A regular builder: the list and its tokens only, no counts and no warning.
  await sql("UPDATE accounts SET is_admin = false WHERE account_id = $1", [builder.accountId]);
  await page.reload();
  await expect(chat.button(changed, messages.chatFilesUsed)).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId("message-context-files-left-out")).toHaveCount(0);
  await chat.button(failed, messages.chatFilesUsed).click();
  await expect(dialog.getByRole("row", { name: /pages\/Home\.jsx/ })).toBeVisible();
  await expect(dialog.getByTestId("context-files-coverage")).toHaveCount(0);
  await expect(dialog.getByTestId("context-files-missing")).toHaveCount(0);
  await expect(dialog.getByRole("columnheader", { name: messages.contextFilesMethods })).toHaveCount(0);
});
