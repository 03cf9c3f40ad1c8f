import crypto from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { getPlanCapabilities } from "../../lib/plans/capabilities";
import { RATING_POSITIVE_REASONS, RATING_PROBLEM_REASONS } from "../../lib/space/schemas";
import { fillTemplate } from "../../lib/text";
import { SpaceChatPage } from "./pages/space-chat-page";
import { expectNoA11yViolations, SPACE_PREVIEW_FRAME } from "./support/axe";
import { createApp, createBuilder, sql } from "./support/db";
import { CHAT_HELD_WORD, RUN_SLOW_WORD } from "./support/model-responder";
import { logInAsBuilder, toast } from "./support/ui";

// The App chat of a space app: the conversation paged
// from its end, ?messageId= and preview=true, the Preview / Previewing toggle, restore and its
// undo, revert, the rating dialog, and answers streamed by the local model server of the e2e run
// (tests/support/openai-server.ts demoResponder: a page quoting the request, a partial edit for
// "change ...", a cut answer for "long", a failure for "fail", a slow answer for RUN_SLOW_WORD,
// one that stalls until it is stopped for CHAT_HELD_WORD).

const tag = () => crypto.randomUUID().slice(0, 6);

type Asked = { answerId: string; userMessageId: string; versionId: string | null };

/** One exchange through POST /api/apps/{appId}/chat, read to its end (the AI SDK's UI message stream). */
async function askApi(page: Page, appId: string, text: string): Promise<Asked> {
  const res = await page.request.post(`/api/apps/${appId}/chat`, { data: { text } });
  expect(res.status()).toBe(200);
  const parts = (await res.text())
    .split("\n")
    .filter((l) => l.startsWith("data: ") && l !== "data: [DONE]")
    .map(
      (l) =>
        JSON.parse(l.slice(6)) as {
          type: string;
          id?: string;
          messageId?: string;
          messageMetadata?: { userMessageId: string };
        },
    );
  const start = parts.find((p) => p.type === "start")!;
  expect(parts.at(-1)?.type).toBe("finish");
  return {
    answerId: start.messageId!,
    userMessageId: start.messageMetadata!.userMessageId,
    versionId: parts.find((p) => p.type === "data-version")?.id ?? null,
  };
}

/** Messages that say nothing, between two exchanges, so the conversation has more than one page. */
async function insertFiller(appId: string, n: number): Promise<void> {
  await sql(
    `INSERT INTO chat_messages (app_id, role, content, status)
     SELECT $1, CASE WHEN i % 2 = 1 THEN 'user' ELSE 'assistant' END, 'Filler ' || i, 'complete'
     FROM generate_series(1, $2::int) AS i ORDER BY i`,
    [appId, n],
  );
}

/** axe on the builder's page; the preview frame shows the builder's own app, not ours. */
const expectNoViolations = (page: Page, where: string) =>
  expectNoA11yViolations(page, where, undefined, SPACE_PREVIEW_FRAME);

/** The chat's status line (read to screen readers) saying exactly this. */
const announced = (page: Page, text: string) =>
  page.getByRole("status").filter({ hasText: new RegExp(`^${text.replace(/[.?]/g, "\\$&")}$`) });

const restoredPrefix = messages.restoreMessageContent.split("{date}")[0]!;
const undonePrefix = messages.undoRestoreMessageContent.split("{date}")[0]!;

test("the conversation: pages of history, ?messageId= with preview=true, the preview toggle, restore and undo, rating, revert, and a reload", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, { type: "space", header: `Wiki ${tag()}` });
  await logInAsBuilder(page, builder);
  const firstText = "Make a home page for the team wiki";
  const secondText = "change the heading to Wiki Home";
  const first = await askApi(page, appId, firstText);
  expect(first.versionId).not.toBeNull();
  await insertFiller(appId, 60);
  const second = await askApi(page, appId, secondText);
  expect(second.versionId).not.toBeNull();
  const chat = new SpaceChatPage(page, appId);

  // A message that is not in the conversation, and one without a version to preview.
  await chat.goto(`?messageId=${crypto.randomUUID()}`);
  await expect(toast(page, messages.messageNotInHistory)).toBeVisible({ timeout: 45_000 });
  await chat.goto(`?messageId=${first.userMessageId}&preview=true`);
  await expect(toast(page, messages.previewNoVersion)).toBeVisible({ timeout: 45_000 });

  // ?messageId=&preview=true: the first page does not hold it, so the earlier one is loaded; the
  // message is scrolled to and its version previewed.
  await chat.goto(`?messageId=${first.answerId}&preview=true`);
  const firstAnswer = chat.message(first.answerId);
  await expect(firstAnswer).toBeInViewport({ timeout: 45_000 });
  await expect(chat.messages).toHaveCount(64);
  await expect(chat.startOfConversation).toBeAttached();
  await expect(chat.previewButton(firstAnswer)).toHaveText(messages.versionPreviewing);
  await expect(chat.previewButton(firstAnswer)).toHaveAttribute("aria-pressed", "true");
  await expect(chat.previewFrame).toHaveAttribute(
    "title",
    fillTemplate(messages.previewFrameTitle, { number: 1 }),
  );
  await chat.expectPreviewHeading(firstText);
  await expect(page.getByText(messages.chatPreviewingEarlier)).toBeVisible();
  // Previewing toggles back to the current version; the latest version has no preview button.
  await chat.previewButton(firstAnswer).click();
  await expect(chat.previewButton(firstAnswer)).toHaveText(messages.versionPreview);
  await chat.expectPreviewHeading(secondText);
  const secondAnswer = chat.message(second.answerId);
  await expect(chat.previewButton(secondAnswer)).toHaveCount(0);
  // Not an admin: no version id line, no token usage, no copy-message button.
  await expect(page.getByTestId("message-version-line")).toHaveCount(0);
  await expect(page.getByTestId("message-usage")).toHaveCount(0);
  await expect(page.getByRole("button", { name: messages.chatCopyMessage })).toHaveCount(0);

  // Opened plainly: the last 50 messages; 'Load previous messages' within 50 px of the top
  // brings the rest and keeps what was on screen where it was.
  await chat.goto();
  await expect(chat.messages).toHaveCount(50, { timeout: 45_000 });
  await expect(secondAnswer).toBeInViewport();
  await expect(chat.startOfConversation).toHaveCount(0);
  await expect(chat.loadPrevious).toHaveCount(0);
  await chat.scroller.evaluate((el) => el.scrollTo({ top: 0 }));
  const topMessage = chat.messages.first();
  const topId = await topMessage.getAttribute("data-message-id");
  await chat.loadPrevious.click();
  await expect(chat.messages).toHaveCount(64);
  await expect(chat.startOfConversation).toBeAttached();
  await expect(chat.message(topId!)).toBeInViewport();
  expect(await chat.scroller.evaluate((el) => el.scrollTop)).toBeGreaterThan(300);
  await expectNoViolations(page, "space chat, 1280 light");

  // Restore the first version: a restore notice with Undo restore; the preview shows it.
  await firstAnswer.scrollIntoViewIfNeeded();
  await chat.button(firstAnswer, messages.chatRestore).click();
  const restoreNotice = chat.log.locator('article[data-kind="restore"]');
  await expect(restoreNotice).toContainText(restoredPrefix);
  await chat.expectPreviewHeading(firstText);
  await expect(chat.composer).toBeFocused();
  // Undo: an undo notice, no more undo on the restore, the second version's files again.
  await chat.button(restoreNotice, messages.chatUndoRestore).click();
  const undoNotice = chat.log.locator('article[data-kind="undo_restore"]');
  await expect(undoNotice).toContainText(undonePrefix);
  await expect(chat.button(restoreNotice, messages.chatUndoRestore)).toHaveCount(0);
  await chat.expectPreviewHeading(secondText);

  // Rating: a score first, the reasons that fit it, an optional comment sent trimmed.
  await chat.button(secondAnswer, messages.chatRate).click();
  const dialog = chat.ratingDialog;
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("checkbox")).toHaveCount(0);
  await dialog.getByRole("button", { name: messages.ratingSubmit }).click();
  await expect(dialog.getByText(messages.ratingNeedsScore)).toBeVisible();
  const star = (n: number) => dialog.getByRole("radio", { name: fillTemplate(messages.ratingStar, { n }) });
  await star(5).check();
  await expect(dialog.getByText(messages.ratingPositiveLegend)).toBeVisible();
  await expect(dialog.getByRole("checkbox")).toHaveCount(RATING_POSITIVE_REASONS.length);
  for (const reason of RATING_POSITIVE_REASONS)
    await expect(dialog.getByRole("checkbox", { name: reason })).toBeVisible();
  await star(2).check();
  await expect(dialog.getByText(messages.ratingProblemLegend)).toBeVisible();
  await expect(dialog.getByRole("checkbox")).toHaveCount(RATING_PROBLEM_REASONS.length);
  for (const reason of RATING_PROBLEM_REASONS)
    await expect(dialog.getByRole("checkbox", { name: reason })).toBeVisible();
  await dialog.getByRole("checkbox", { name: messages.ratingReasonBugs }).click();
  await dialog.getByLabel(messages.ratingComment).fill("   The heading broke.   ");
  await expectNoViolations(page, "rating dialog");
  // "Rating dialog resets on close".
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await chat.button(secondAnswer, messages.chatRate).click();
  await expect(star(2)).not.toBeChecked();
  await expect(dialog.getByLabel(messages.ratingComment)).toHaveValue("");
  await star(2).check();
  await dialog.getByRole("checkbox", { name: messages.ratingReasonBugs }).click();
  await dialog.getByLabel(messages.ratingComment).fill("   The heading broke.   ");
  await dialog.getByRole("button", { name: messages.ratingSubmit }).click();
  await expect(toast(page, messages.ratingSent)).toBeVisible();
  await expect(secondAnswer).toContainText(messages.ratingAlreadyRated);
  await expect(chat.button(secondAnswer, messages.chatRate)).toHaveCount(0);
  const [rating] = await sql<{ score: number; feedback: string[]; comment: string }>(
    "SELECT score, feedback, comment FROM ratings WHERE message_id = $1",
    [second.answerId],
  );
  expect(rating).toEqual({ score: 2, feedback: [messages.ratingReasonBugs], comment: "The heading broke." });

  // Revert to the first version: the confirm says how many later messages go.
  await firstAnswer.scrollIntoViewIfNeeded();
  await chat.button(firstAnswer, messages.chatRevert).click();
  await expect(chat.revertDialog).toContainText(fillTemplate(messages.chatRevertText, { n: 64 }));
  await chat.revertDialog.getByRole("button", { name: messages.chatRevert }).click();
  await expect(toast(page, messages.chatReverted)).toBeVisible();
  await expect(chat.messages).toHaveCount(2);
  await chat.expectPreviewHeading(firstText);
  await expect(chat.previewButton(firstAnswer)).toHaveCount(0);

  // A reload finds the conversation and the app as they were left.
  await page.reload();
  await expect(chat.messages).toHaveCount(2, { timeout: 45_000 });
  await expect(chat.startOfConversation).toBeVisible();
  await chat.expectPreviewHeading(firstText);

  // Phones: the chat, or (with the toolbar's Preview) the preview; light and dark.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(chat.composer).toBeVisible();
  await expect(chat.previewFrame).toBeHidden();
  await expectNoViolations(page, "space chat, 375 dark");
  await page.getByRole("button", { name: messages.editorPreview, exact: true }).click();
  await expect(chat.previewFrame).toBeVisible();
  await expect(chat.composer).toBeHidden();
});

test("ask for a page and watch it stream into the preview, change it, stop one, keep going after a cut, retry a failure, discuss, reload", async ({
  page,
  context,
}, info) => {
  test.setTimeout(300_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const builder = await createBuilder({ plan: "moon", isAdmin: true });
  const { appId } = await createApp(builder, { type: "space", header: `Book club ${tag()}` });
  await logInAsBuilder(page, builder);
  const chat = new SpaceChatPage(page, appId);
  await chat.goto();

  // Nothing yet: the empty state says what to do.
  await expect(page.getByRole("heading", { name: messages.chatEmptyTitle })).toBeVisible({ timeout: 45_000 });
  await expect(page.getByText(messages.chatEmptyHint)).toBeVisible();
  await expect(page.getByText(messages.chatPreviewEmpty)).toBeVisible();
  await page.emulateMedia({ colorScheme: "dark" });
  await expectNoViolations(page, "empty space chat, 1280 dark");
  await page.emulateMedia({ colorScheme: "light" });

  // Every state an action card shows, in order, recorded in the page as it streams.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { actionStates: string[] }).actionStates = seen;
    new MutationObserver(() => {
      for (const el of document.querySelectorAll("[data-action-status]")) {
        const s = el.getAttribute("data-action-status")!;
        if (seen.at(-1) !== s) seen.push(s);
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });

  // 1. A page, answered slowly: 'Thinking...', the action streaming, then done and previewed.
  const pageText = `Make a ${RUN_SLOW_WORD} page for our book club`;
  const firstAnswer = await chat.newAnswer(() => chat.ask(pageText));
  await expect(chat.composer).toHaveValue("");
  await expect(chat.log.getByText(pageText)).toBeVisible();
  await expect(chat.stop).toBeVisible();
  await expect(page.getByText(messages.chatActionStreaming)).toBeVisible({ timeout: 30_000 });
  // A second message while the answer streams is refused, and the text stays.
  await chat.ask("Add a footer");
  await expect(page.getByText(messages.chatBusy)).toBeVisible();
  await expect(chat.composer).toHaveValue("Add a footer");
  await chat.composer.fill("");
  await expect(firstAnswer).toHaveAttribute("data-status", "complete", { timeout: 60_000 });
  await expect(firstAnswer.locator("[data-action-status]")).toHaveAttribute("data-action-status", "complete");
  await expect(firstAnswer).toContainText(
    fillTemplate(messages.chatActionAddFile, { file: "pages/Home.jsx" }),
  );
  const states = await page.evaluate(() => (window as unknown as { actionStates: string[] }).actionStates);
  expect(states.slice(0, 2)).toEqual(["streaming", "complete"]);
  await expect(chat.stop).toHaveCount(0);
  await chat.expectPreviewHeading(pageText);
  // Admin extras: the token usage summary, the version line, the copy-message button.
  await expect(firstAnswer.getByTestId("message-usage")).toContainText("tokens");
  await expect(firstAnswer.getByTestId("message-usage")).not.toContainText("?");
  // The version named as the Versions dialog names it, never by its id.
  await expect(firstAnswer.getByTestId("message-version-line")).toHaveText(/^Version \d+$/);
  await expect(announced(page, messages.chatAnswerDone)).toBeAttached();
  await chat.button(firstAnswer, messages.chatCopyMessage).click();
  await expect(chat.button(firstAnswer, messages.chatCopied)).toBeVisible();
  await expect(chat.button(firstAnswer, messages.chatCopyMessage)).toBeVisible({ timeout: 5_000 });
  // The code of an action, on demand.
  await firstAnswer.getByRole("button", { name: new RegExp(`^${messages.chatActionShow}`) }).click();
  await expect(firstAnswer.locator("pre")).toContainText("export default function Home()");

  // 2. A change: a partial edit of the heading; the first version can now be previewed.
  const changeText = "change the heading to Readers Weekly";
  const changeAnswer = await chat.newAnswer(() => chat.ask(changeText));
  await expect(changeAnswer).toHaveAttribute("data-status", "complete", { timeout: 60_000 });
  await expect(changeAnswer).toContainText(
    fillTemplate(messages.chatActionPartialEdit, { file: "pages/Home.jsx" }),
  );
  await chat.expectPreviewHeading(changeText);
  await expect(chat.previewButton(firstAnswer)).toBeVisible();
  await expect(chat.previewButton(changeAnswer)).toHaveCount(0);

  // 3. Stop: the slow answer ends 'incomplete', its open action is not applied.
  const stopped = await chat.newAnswer(() => chat.ask(`update the heading slowly ${CHAT_HELD_WORD}`));
  await expect(page.getByText(messages.chatActionStreaming)).toBeVisible({ timeout: 30_000 });
  await chat.stop.click();
  await expect(stopped).toHaveAttribute("data-status", "incomplete", { timeout: 30_000 });
  await expect(stopped).toContainText(messages.chatAnswerStopped);
  // No token line of question marks, and the status line says what happened.
  await expect(announced(page, messages.chatAnswerStoppedAnnounce)).toBeAttached();
  await expect(stopped.getByTestId("message-usage")).toHaveCount(0);
  await expect(stopped.locator("[data-action-status]")).toHaveAttribute("data-action-status", "incomplete");
  await chat.expectPreviewHeading(changeText);

  // 4. Too long: cut at the model's output cap; 'Let's keep going' finishes the page.
  const cut = await chat.newAnswer(() => chat.ask("Write a long page about our reading list"));
  await expect(cut).toHaveAttribute("data-status", "truncated", { timeout: 60_000 });
  await expect(cut.locator("[data-action-status]")).toHaveAttribute("data-action-status", "truncated");
  await expect(cut).toContainText(messages.chatTruncatedNote);
  const continued = await chat.newAnswer(() => chat.button(cut, messages.chatKeepGoing).click());
  await expect(continued).toHaveAttribute("data-status", "complete", { timeout: 60_000 });
  await expect(chat.button(cut, messages.chatKeepGoing)).toHaveCount(0);
  await chat.expectPreviewHeading("Write a long page about our reading list");
  await expect(chat.preview.getByText("Section 60 of the long page")).toBeVisible();

  // 5. A failed answer: the spec's text, the cause on demand; retry works on the last message only.
  const failed = await chat.newAnswer(() => chat.ask("Please fail this time"));
  await expect(failed).toHaveAttribute("data-status", "failed", { timeout: 60_000 });
  await expect(failed).toContainText(messages.chatAssistantFailed);
  await expect(announced(page, messages.chatAnswerFailedAnnounce)).toBeAttached();
  await expect(failed.getByTestId("message-usage")).toHaveCount(0);
  await page.screenshot({ path: info.outputPath("chat-failed-answer.png"), fullPage: true });
  await failed.getByRole("button", { name: messages.chatErrorDetails }).click();
  await expect(failed.getByTestId("chat-error-card").locator("p").last()).not.toBeEmpty();
  const failedId = (await failed.getAttribute("data-message-id"))!;
  const tasks = await chat.newAnswer(() => chat.ask("Add a tasks list"));
  await expect(tasks).toHaveAttribute("data-status", "complete", { timeout: 60_000 });
  await chat.button(chat.message(failedId), messages.chatRetry).click();
  await expect(toast(page, messages.chatRetryOnlyLast)).toBeVisible();
  const failedAgain = await chat.newAnswer(() => chat.ask("fail once more, then work"));
  await expect(failedAgain).toHaveAttribute("data-status", "failed", { timeout: 60_000 });
  const failedAgainId = (await failedAgain.getAttribute("data-message-id"))!;
  await chat.button(failedAgain, messages.chatRetry).click();
  await expect(chat.message(failedAgainId)).toHaveCount(0, { timeout: 30_000 });
  await expect(chat.lastAnswer()).toHaveAttribute("data-status", "complete", { timeout: 60_000 });
  await chat.expectPreviewHeading("fail once more, then work");

  // 6. Discuss mode: an answer in prose, no action, no version.
  await chat.discussMode.click();
  const discussed = await chat.newAnswer(() => chat.ask("What colours would suit it?"));
  await expect(discussed).toHaveAttribute("data-status", "complete", { timeout: 60_000 });
  await expect(discussed).toContainText(messages.chatDiscussBadge);
  await expect(discussed.locator("[data-action-status]")).toHaveCount(0);
  await expect(discussed.getByTestId("message-version-line")).toHaveCount(0);
  await chat.expectPreviewHeading("fail once more, then work");
  await expectNoViolations(page, "space chat after answers, 1280 light");

  // 7. A reload finds everything as it was.
  const ids = await chat.messages.evaluateAll((els) => els.map((e) => e.getAttribute("data-message-id")));
  await page.reload();
  await expect(chat.messages).toHaveCount(ids.length, { timeout: 45_000 });
  expect(await chat.messages.evaluateAll((els) => els.map((e) => e.getAttribute("data-message-id")))).toEqual(
    ids,
  );
  await expect(chat.message(failedId)).toContainText(messages.chatAssistantFailed);
  await expect(cut).toContainText(messages.chatTruncatedNote);
  await chat.expectPreviewHeading("fail once more, then work");
});

test("the chat assistant is activated from its modal, and a failed switch is rolled back", async ({
  page,
}) => {
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, { type: "space", header: `Assistant ${tag()}` });
  await logInAsBuilder(page, builder);
  const chat = new SpaceChatPage(page, appId);
  await chat.goto();
  await expect(chat.assistantButton).toContainText(messages.chatAssistantDraft, { timeout: 45_000 });
  await chat.assistantButton.click();
  await expect(chat.activateDialog).toBeVisible();
  const toggle = chat.activateDialog.getByRole("switch", { name: messages.chatActivateSwitch });
  await toggle.click();
  await expect(toast(page, messages.chatActivated)).toBeVisible();
  await expect(toggle).toBeChecked();
  await expectNoViolations(page, "activate chat assistant");
  await page.keyboard.press("Escape");
  await expect(chat.assistantButton).toContainText(messages.chatAssistantActive);

  await page.reload();
  await expect(chat.assistantButton).toContainText(messages.chatAssistantActive, { timeout: 45_000 });
  // The app goes away meanwhile: the switch is turned off at once, then back on when the call fails.
  await chat.assistantButton.click();
  await sql("DELETE FROM apps WHERE id = $1", [appId]);
  await toggle.click();
  await expect(toast(page, messages.chatDeactivateFailed)).toBeVisible();
  await expect(toggle).toBeChecked();
});

test("the files used by an answer and the changes of its version, in their dialogs; no diff while an answer streams", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, { type: "space", header: `Dialogs ${tag()}` });
  await logInAsBuilder(page, builder);
  const first = await askApi(page, appId, "A page for my list of tasks");
  const second = await askApi(page, appId, "change the title to Done right");
  const chat = new SpaceChatPage(page, appId);
  await chat.goto();
  const secondAnswer = chat.message(second.answerId);
  await expect(secondAnswer).toBeVisible({ timeout: 45_000 });

  // Files used (a regular builder sees the list and the token estimates).
  const history = (await (
    await page.request.get(`/api/apps/${appId}/chat/history?fromMessageId=&limit=50`)
  ).json()) as {
    messages: {
      id: string;
      annotations: { contextMetadata: { retrievedFiles: { filePath: string; tokenEstimation: number }[] } }[];
    }[];
  };
  const retrieved = history.messages.find((m) => m.id === second.answerId)!.annotations[0]!.contextMetadata
    .retrievedFiles;
  expect(retrieved.map((f) => f.filePath)).toEqual(["entities/Task.json", "pages/Home.jsx"]);
  const filesButton = chat.button(secondAnswer, messages.chatFilesUsed);
  await filesButton.click();
  const filesDialog = page.getByRole("dialog", { name: messages.contextFilesTitle });
  await expect(filesDialog).toBeVisible();
  for (const f of retrieved) {
    await expect(filesDialog.getByRole("row", { name: new RegExp(f.filePath) })).toContainText(
      f.tokenEstimation.toLocaleString("en-US"),
    );
  }
  await expect(filesDialog.getByRole("columnheader", { name: messages.contextFilesMethods })).toHaveCount(0);
  await expectNoViolations(page, "context files dialog");
  await page.keyboard.press("Escape");
  await expect(filesDialog).toBeHidden();
  await expect(filesButton).toBeFocused();

  // The first version added both files: added first, by path.
  await chat.button(chat.message(first.answerId), messages.chatViewChanges).click();
  const changes = page.getByRole("dialog", { name: fillTemplate(messages.diffTitle, { n: 1 }) });
  await expect(changes.getByRole("treeitem")).toHaveText([
    "entities",
    /Task\.json.*Added/,
    "pages",
    /Home\.jsx.*Added/,
  ]);
  await page.keyboard.press("Escape");

  // The second changed one line of the page: the tree, the keyboard, the line diff.
  await chat.button(secondAnswer, messages.chatViewChanges).click();
  const diff = page.getByRole("dialog", { name: fillTemplate(messages.diffTitle, { n: 2 }) });
  const items = diff.getByRole("treeitem");
  await expect(items).toHaveText(["pages", /Home\.jsx.*Modified/]);
  await expect(items.nth(1)).toHaveAttribute("aria-selected", "true");
  await expect(diff.getByTestId("changes-diff")).toContainText(
    fillTemplate(messages.diffLineStats, { added: 1, removed: 1 }),
  );
  await expect(diff.locator('tr[data-line="removed"]')).toContainText("list of tasks");
  await expect(diff.locator('tr[data-line="added"]')).toContainText("Done right");
  // Within the changed line, the words that changed are marked on each side.
  await expect(diff.locator('tr[data-line="removed"] [data-word-change]').first()).toBeVisible();
  await expect(diff.locator('tr[data-line="added"] [data-word-change]').first()).toBeVisible();
  expect(
    (await diff.locator('tr[data-line="added"] [data-word-change]').allTextContents()).join(" "),
  ).toContain("Done");
  await items.first().focus();
  await page.keyboard.press("ArrowDown");
  await expect(items.nth(1)).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await expect(items.first()).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await expect(items.first()).toHaveAttribute("aria-expanded", "false");
  await expect(items).toHaveCount(1);
  await page.keyboard.press("ArrowRight");
  await expect(items).toHaveCount(2);
  await expectNoViolations(page, "all-changes dialog");
  await page.keyboard.press("Escape");
  await expect(diff).toBeHidden();

  // 375 px: the dialog fits the screen.
  await page.setViewportSize({ width: 375, height: 800 });
  await chat.button(secondAnswer, messages.chatViewChanges).click();
  const box = await diff.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(375);
  await expect(diff.locator('tr[data-line="added"]')).toBeVisible();
  await page.keyboard.press("Escape");
  await page.setViewportSize({ width: 1280, height: 800 });

  // While an answer writes its files, its diff is refused ('Wait for the changes to complete...').
  const live = await chat.newAnswer(() => chat.ask(`change the title to ${RUN_SLOW_WORD} words`));
  await expect(live.getByText(messages.chatActionStreaming)).toBeVisible({ timeout: 30_000 });
  await chat.button(live, messages.chatViewChanges).click();
  await expect(toast(page, messages.diffWaitForChanges)).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  // Not stopped here: on a busy machine the slow answer may have ended by now (Stop is tested above).
});

test("a builder whose AI requests are spent sees the limit's message and the upgrade dialog in the chat", async ({
  page,
}) => {
  const builder = await createBuilder();
  const { appId } = await createApp(builder, { type: "space", header: `Budget ${tag()}` });
  await logInAsBuilder(page, builder);
  const chat = new SpaceChatPage(page, appId);
  await chat.goto();
  // Earlier answers spent the lite plan's allowance of the minute.
  const { modelCallsPerMinute } = getPlanCapabilities("lite");
  for (let i = 0; i < modelCallsPerMinute; i++) await askApi(page, appId, `A page number ${i}`);
  await expect(chat.composer).toBeEditable({ timeout: 45_000 });

  const refused = page.waitForResponse((r) => r.url().endsWith(`/api/apps/${appId}/chat`));
  await chat.ask("One more page");
  expect((await refused).status()).toBe(429);
  await expect(
    toast(page, fillTemplate(messages.modelCallsPerMinuteReached, { n: modelCallsPerMinute })),
  ).toBeVisible();
  const upgrade = page.getByRole("dialog", { name: messages.upgradeDialogTitle });
  await expect(upgrade).toBeVisible();
  await expect(upgrade).toContainText(messages.upgradeReasonModelCalls);
  await page.screenshot({ path: "test-results/model-limit-space-chat.png" });
});
