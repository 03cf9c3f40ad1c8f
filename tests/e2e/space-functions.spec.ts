import crypto from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { fillTemplate } from "../../lib/text";
import { DEMO_WEBHOOK_FUNCTION, DEMO_WEBHOOK_SECRET } from "../support/openai-server";
import { EditorPage } from "./pages/editor-page";
import { SpaceChatPage } from "./pages/space-chat-page";
import { expectNoA11yViolationsInBothThemes, SPACE_PREVIEW_FRAME } from "./support/axe";
import { createApp, createBuilder } from "./support/db";
import { logInAsBuilder } from "./support/ui";

// A space app's backend function from the chat to a webhook: the chat asks for a secret and writes
// a function reading it; a deploy before the secret is set names it with a Manage Secrets button;
// the builder enters the secret on the chat's card; Deploy all gives its summary; the unpublished
// app's URL says so; once published, the URL shown in the Functions panel answers, with the secret.

const tag = () => crypto.randomUUID().slice(0, 6).replaceAll("-", "");

async function openFunctions(page: Page) {
  await page
    .getByRole("navigation", { name: messages.editorPanels })
    .getByRole("button", { name: messages.editorMenuFunctions })
    .click();
  await expect(
    page.getByRole("heading", { level: 2, name: messages.functionsTitle, exact: true }),
  ).toBeFocused();
}

async function backToChat(page: Page) {
  await page.getByRole("button", { name: messages.editorBackToMenu }).click();
}

test("the chat asks for a secret and writes a webhook; deploy, publish, and its URL answers", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, { type: "space", header: `Webhook ${tag()}` });
  await logInAsBuilder(page, builder);
  const chat = new SpaceChatPage(page, appId);
  await chat.goto();

  // Before the chat wrote anything, the panel says what to do.
  await openFunctions(page);
  await expect(page.getByText(messages.functionsEmpty)).toBeVisible();
  await backToChat(page);

  const answer = await chat.newAnswer(() => chat.ask("Add a webhook for my payment provider"));
  await expect(answer).toHaveAttribute("data-status", "complete", { timeout: 60_000 });
  const card = answer.locator("[data-action-status]").filter({ hasText: messages.chatActionRequestSecrets });
  await expect(card.locator("[data-secrets-status]")).toHaveText(messages.chatSecretsMissing, {
    timeout: 20_000,
  });

  // Deployed before its secret is set: refused, naming the secret, with the way to set it.
  await openFunctions(page);
  const row = page.locator(`[data-function="${DEMO_WEBHOOK_FUNCTION}"]`);
  await expect(row).toHaveAttribute("data-state", "pending");
  await expect(page.getByText(messages.functionUnpublished)).toBeVisible();
  await row.getByRole("button", { name: messages.functionDeploy, exact: true }).click();
  const failure = row.getByRole("alert");
  await expect(failure).toContainText(messages.functionMissingSecrets);
  await expect(failure.locator(`[data-missing-secret="${DEMO_WEBHOOK_SECRET}"]`)).toContainText(
    "x-webhook-secret",
  );
  await expect(row).toHaveAttribute("data-state", "error");
  await failure.getByRole("button", { name: messages.secretsManage }).click();
  const manage = page.getByRole("dialog", { name: messages.secretsDialogTitle });
  await expect(manage).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(manage).toBeHidden();
  await backToChat(page);

  // The builder enters it on the chat's card.
  const secret = `whsec-${crypto.randomUUID()}`;
  await card.getByRole("button", { name: messages.chatSecretsEnter }).click();
  const dialog = page.getByRole("dialog", { name: messages.chatSecretsDialogTitle });
  await dialog.getByLabel(DEMO_WEBHOOK_SECRET).fill(secret);
  await dialog.getByRole("button", { name: messages.secretsSave }).click();
  await expect(dialog).toBeHidden();
  await expect(card.locator("[data-secrets-status]")).toHaveText(messages.chatSecretsAllSet);

  // Deploy all: its summary, the state, and still no URL while unpublished.
  await openFunctions(page);
  await page.getByTestId("functions-deploy-all").click();
  await expect(page.locator("[data-summary]")).toHaveText(
    fillTemplate(messages.functionsRedeployed, { n: 1 }),
  );
  await expect(row).toHaveAttribute("data-state", "success");
  await expect(row.getByRole("alert")).toHaveCount(0);
  await expect(row.getByRole("textbox")).toHaveCount(0);
  const url = `/api/apps/${appId}/functions/${DEMO_WEBHOOK_FUNCTION}`;
  const unpublished = await page.request.post(url, { headers: { "x-webhook-secret": secret }, data: "{}" });
  expect(unpublished.status()).toBe(403);
  expect((await unpublished.json()).error.message).toBe(messages.functionUnpublished);

  // Published: the panel shows the URL (the same as the route's), and it answers.
  await new EditorPage(page, appId).publishApp();
  const urlBox = row.getByRole("textbox", {
    name: fillTemplate(messages.functionUrl, { name: DEMO_WEBHOOK_FUNCTION }),
  });
  await expect(urlBox).toHaveValue(new RegExp(`${url}$`));
  await expect(page.getByText(messages.functionUnpublished)).toHaveCount(0);
  const shown = new URL(await urlBox.inputValue());
  const called = await page.request.post(shown.pathname, {
    headers: { "x-webhook-secret": secret, "content-type": "application/json" },
    data: '{"event":"paid"}',
  });
  expect(called.status()).toBe(200);
  expect(await called.json()).toEqual({ received: true, method: "POST", bytes: 16 });
  const stranger = await page.request.post(shown.pathname, { data: "{}" });
  expect(stranger.status()).toBe(401);

  await page.screenshot({ path: ".data/screens/space-functions-panel.png" });
  await expectNoA11yViolationsInBothThemes(page, "functions panel", undefined, SPACE_PREVIEW_FRAME);
  // The secret shows on no page.
  expect(await page.content()).not.toContain(secret);

  await page.setViewportSize({ width: 375, height: 800 });
  await expect(urlBox).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: ".data/screens/space-functions-panel-375.png" });
});
