import crypto from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { SECRET_MASK } from "../../lib/constants";
import { messages } from "../../lib/messages";
import { fillTemplate } from "../../lib/text";
import { SpaceChatPage } from "./pages/space-chat-page";
import {
  expectNoA11yViolations,
  expectNoA11yViolationsInBothThemes,
  SPACE_PREVIEW_FRAME,
} from "./support/axe";
import { createApp, createBuilder, sql } from "./support/db";
import { CHAT_SECRET_DESCRIPTION, CHAT_SECRETS_WORD } from "./support/model-responder";
import { logInAsBuilder } from "./support/ui";

// A space app's secrets: the Secrets dialog of its settings (save, listed masked, delete, the
// rows' validation, failures) and the chat's request_secrets card with its secrets dialog. A value
// typed once never shows again on any page.

const tag = () => crypto.randomUUID().slice(0, 6).replaceAll("-", "");

async function openSecretsDialog(page: Page, appId: string) {
  await page.goto(`/build/app/${appId}?panel=settings`);
  await expect(page.getByRole("heading", { level: 2, name: messages.appSettingsAppTitle })).toBeVisible({
    timeout: 20_000,
  });
  await page.getByRole("button", { name: messages.secretsManage }).click();
  const dialog = page.getByRole("dialog", { name: messages.secretsDialogTitle });
  await expect(dialog).toBeVisible();
  return dialog;
}

test("the settings' Secrets dialog saves, lists masked, refuses empty rows, deletes", async ({ page }) => {
  test.setTimeout(120_000);
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, { type: "space", header: `Secrets ${tag()}` });
  await logInAsBuilder(page, builder);
  const dialog = await openSecretsDialog(page, appId);
  await expect(dialog.getByText(messages.secretsEmpty)).toBeVisible();

  const canary = `canary-${crypto.randomUUID()}`;
  const key = dialog.getByRole("textbox", { name: messages.secretsKeyLabel }).first();
  const value = dialog.getByLabel(messages.secretsValueLabel, { exact: true }).first();
  await key.fill("MAIL_API_KEY");
  await dialog.getByRole("button", { name: messages.secretsSave }).click();
  await expect(dialog.getByRole("alert")).toHaveText(messages.secretsKeyAndValueRequired);

  await value.fill(canary);
  await dialog
    .getByRole("textbox", { name: messages.secretsInstructionsLabel })
    .first()
    .fill("From the mail provider");
  // A server that fails says so, and keeps the rows.
  await page.route(`**/api/apps/${appId}/secrets`, (route) =>
    route.request().method() === "POST" ? route.fulfill({ status: 500, body: "{}" }) : route.fallback(),
  );
  await dialog.getByRole("button", { name: messages.secretsSave }).click();
  await expect(page.getByText(messages.secretsSaveFailed)).toBeVisible();
  await expect(key).toHaveValue("MAIL_API_KEY");
  await page.unroute(`**/api/apps/${appId}/secrets`);

  await dialog.getByRole("button", { name: messages.secretsSave }).click();
  await expect(page.getByText(messages.secretsSaved)).toBeVisible();
  const saved = dialog.locator('[data-secret-key="MAIL_API_KEY"]');
  await expect(saved).toContainText(SECRET_MASK);
  await expect(saved).toContainText("From the mail provider");
  await expect(key).toHaveValue("");
  // The saved key is read-only: a new row with it is refused before it is sent.
  await key.fill("MAIL_API_KEY");
  await value.fill("another");
  await dialog.getByRole("button", { name: messages.secretsSave }).click();
  await expect(dialog.getByRole("alert")).toHaveText(
    fillTemplate(messages.secretKeyDuplicate, { key: "MAIL_API_KEY" }),
  );
  await dialog.getByRole("button", { name: fillTemplate(messages.secretsRemoveRow, { n: 1 }) }).click();

  await page.screenshot({ path: ".data/screens/space-secrets-dialog-light.png" });
  await expectNoA11yViolationsInBothThemes(page, "secrets dialog", '[role="dialog"]');
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: ".data/screens/space-secrets-dialog-dark.png" });
  await page.emulateMedia({ colorScheme: "light" });

  // Reopened on a fresh page, the list comes from the server, masked; the value is nowhere.
  await page.reload();
  const again = await openSecretsDialog(page, appId);
  await expect(again.locator('[data-secret-key="MAIL_API_KEY"]')).toContainText(SECRET_MASK);
  expect(await page.content()).not.toContain(canary);
  const [row] = await sql<{ sealed_value: string }>(
    "SELECT sealed_value FROM app_secrets WHERE app_id = $1",
    [appId],
  );
  expect(row!.sealed_value).not.toContain(canary);

  // A delete asks first; Cancel keeps the secret.
  const deleteButton = again.getByRole("button", {
    name: fillTemplate(messages.secretsDelete, { key: "MAIL_API_KEY" }),
  });
  const confirm = page.getByRole("alertdialog", {
    name: fillTemplate(messages.secretDeleteTitle, { key: "MAIL_API_KEY" }),
  });
  await deleteButton.click();
  await expect(confirm).toContainText(messages.secretDeleteDescription);
  await confirm.getByRole("button", { name: messages.cancel }).click();
  await expect(confirm).toBeHidden();
  await expect(again.locator('[data-secret-key="MAIL_API_KEY"]')).toBeVisible();
  await page.route(`**/api/apps/${appId}/secrets/MAIL_API_KEY`, (route) => route.abort());
  await deleteButton.click();
  await confirm.getByRole("button", { name: messages.secretDeleteConfirm }).click();
  await expect(page.getByText(messages.secretDeleteFailed)).toBeVisible();
  await page.unroute(`**/api/apps/${appId}/secrets/MAIL_API_KEY`);
  await deleteButton.click();
  await confirm.getByRole("button", { name: messages.secretDeleteConfirm }).click();
  await expect(page.getByText(messages.secretDeleted)).toBeVisible();
  await expect(again.getByText(messages.secretsEmpty)).toBeVisible();

  // A list that cannot be loaded says so, with a retry.
  await page.route(`**/api/apps/${appId}/secrets`, (route) => route.abort());
  await page.reload();
  const failed = await openSecretsDialog(page, appId);
  await expect(failed.getByRole("alert")).toContainText(messages.secretsLoadFailed);
});

test("the chat's request_secrets card asks for the secret, the dialog sets it, the card shows it set", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, { type: "space", header: `Secret chat ${tag()}` });
  await logInAsBuilder(page, builder);
  const chat = new SpaceChatPage(page, appId);
  await chat.goto();
  const name = `MAIL_KEY_${tag()}`;
  const answer = await chat.newAnswer(() =>
    chat.ask(`${CHAT_SECRETS_WORD} ${name} so the app can send mail`),
  );
  await expect(answer).toHaveAttribute("data-status", "complete", { timeout: 60_000 });

  const card = answer.locator("[data-action-status]").filter({ hasText: messages.chatActionRequestSecrets });
  await expect(card.locator("[data-secrets-status]")).toHaveText(messages.chatSecretsMissing, {
    timeout: 20_000,
  });
  await expect(card).not.toContainText(messages.chatActionNotApplied);
  await expect(card).toContainText(
    fillTemplate(messages.chatSecretsMissingOne, { name, description: CHAT_SECRET_DESCRIPTION }),
  );
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `.data/screens/space-secrets-card-${colorScheme}.png` });
    await expectNoA11yViolations(page, `secrets card, ${colorScheme}`, undefined, SPACE_PREVIEW_FRAME);
  }
  await page.emulateMedia({ colorScheme: "light" });

  await card.getByRole("button", { name: messages.chatSecretsEnter }).click();
  const dialog = page.getByRole("dialog", { name: messages.chatSecretsDialogTitle });
  await expect(dialog).toContainText(CHAT_SECRET_DESCRIPTION);
  await dialog.getByRole("button", { name: messages.secretsSave }).click();
  await expect(page.getByText(messages.secretValuesRequired)).toBeVisible();
  await expect(page.getByText(messages.secretValuesRequiredDescription)).toBeVisible();

  const canary = `canary-${crypto.randomUUID()}`;
  await dialog.getByLabel(name).fill(canary);
  await page.route(`**/api/apps/${appId}/secrets`, (route) =>
    route.request().method() === "POST" ? route.abort() : route.fallback(),
  );
  await dialog.getByRole("button", { name: messages.secretsSave }).click();
  await expect(page.getByText(messages.secretsSetFailed)).toBeVisible();
  await page.unroute(`**/api/apps/${appId}/secrets`);
  await page.screenshot({ path: ".data/screens/space-secrets-chat-dialog.png" });
  await expectNoA11yViolationsInBothThemes(page, "chat secrets dialog", '[role="dialog"]');

  await dialog.getByRole("button", { name: messages.secretsSave }).click();
  await expect(dialog).toBeHidden();
  await expect(card.locator("[data-secrets-status]")).toHaveText(messages.chatSecretsAllSet);
  await expect(card).toContainText(fillTemplate(messages.chatSecretsSetOne, { name }));
  const rows = await sql<{ key: string; instructions: string }>(
    "SELECT key, instructions FROM app_secrets WHERE app_id = $1",
    [appId],
  );
  expect(rows).toEqual([{ key: name, instructions: CHAT_SECRET_DESCRIPTION }]);

  // After a reload the card reads the app's secrets again; the value is on no page.
  await page.reload();
  await expect(card.locator("[data-secrets-status]")).toHaveText(messages.chatSecretsAllSet, {
    timeout: 45_000,
  });
  expect(await page.content()).not.toContain(canary);
});

test("at 375 px the Secrets dialog fits the screen, and passes axe in the dark theme", async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 800 }, colorScheme: "dark" });
  const page = await context.newPage();
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, { type: "space", header: `Secrets ${tag()}` });
  await logInAsBuilder(page, builder);
  const dialog = await openSecretsDialog(page, appId);
  await dialog
    .getByRole("textbox", { name: messages.secretsKeyLabel })
    .first()
    .fill("A_RATHER_LONG_SECRET_NAME_FOR_A_PHONE");
  await dialog.getByLabel(messages.secretsValueLabel, { exact: true }).first().fill("v");
  await dialog.getByRole("button", { name: messages.secretsSave }).click();
  await expect(dialog.locator('[data-secret-key="A_RATHER_LONG_SECRET_NAME_FOR_A_PHONE"]')).toBeVisible();
  await dialog.getByRole("button", { name: messages.secretsAddRow }).click();
  const box = await dialog.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(375);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: ".data/screens/space-secrets-375-dark.png" });
  await expectNoA11yViolations(page, "secrets dialog at 375 px (dark)", '[role="dialog"]');
  await context.close();
});
