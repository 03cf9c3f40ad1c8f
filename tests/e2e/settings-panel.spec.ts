import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { EditorPage } from "./pages/editor-page";
import { createApp, createBuilder, readApp } from "./support/db";
import { logInAsBuilder } from "./support/ui";

// Tool settings: lite is offered the upgrade instead, a paid builder
// changes a run limit that stays, and Done waits for the pending save before closing the panel.

test.use({ viewport: { width: 1280, height: 900 } });

const header = () => `Settings ${crypto.randomUUID().slice(0, 6)}`;

test("lite sees 'Upgrade your plan to edit tool settings' instead of the panel", async ({ page }) => {
  const builder = await createBuilder();
  const { appId } = await createApp(builder, { header: header() });
  await logInAsBuilder(page, builder);
  const editor = new EditorPage(page, appId);
  await editor.goto();
  await expect(editor.menuEntry(messages.editorMenuToolSettings)).toHaveCount(0);
  await expect(editor.menu.getByText(messages.upgradeToEditToolSettings)).toBeVisible();
  await editor.menu.getByRole("button", { name: messages.editorUpgrade }).click();
  const upgrade = page.getByRole("dialog", { name: messages.upgradeDialogTitle });
  await expect(upgrade).toContainText(messages.upgradeToEditToolSettings);
  await page.keyboard.press("Escape");

  // A link straight to the panel opens the menu instead.
  await editor.goto("settings");
  await expect(editor.menu).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: messages.appSettingsToolTitle })).toHaveCount(0);
});

test("a paid builder sets a daily run limit; Done waits for the save, then closes the panel", async ({
  page,
}) => {
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, { header: header() });
  await logInAsBuilder(page, builder);
  const editor = new EditorPage(page, appId);
  await editor.goto();
  await editor.openPanel(messages.editorMenuToolSettings, messages.appSettingsToolTitle);
  await expect(page).toHaveURL(/\?panel=settings$/);
  // Model, temperature and the like are for admins: shown, not editable.
  await expect(page.getByText(messages.appSettingsAdminOnly).first()).toBeVisible();

  const daily = page.getByLabel(messages.appSettingsDailyLimit, { exact: true });
  await daily.fill("0");
  await daily.blur();
  await expect(page.getByText(messages.appSettingsLimitInvalid)).toBeVisible();
  await daily.fill("101");
  await daily.blur();
  await expect(page.getByText(messages.appSettingsLimitInvalid)).toBeVisible();

  // Hold the settings save, so Done can be seen waiting for it.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(`**/api/apps/${appId}/settings`, async (route) => {
    await held;
    await route.continue();
  });
  await daily.fill("5");
  await daily.blur();
  await expect(page.getByText(messages.appSettingsLimitInvalid)).toHaveCount(0);
  await page.getByRole("button", { name: messages.appSettingsDone, exact: true }).click();
  const waiting = page.getByRole("button", { name: messages.appSettingsDoneSaving });
  await expect(waiting).toBeDisabled();
  await expect(page.getByRole("heading", { level: 2, name: messages.appSettingsToolTitle })).toBeVisible();
  release();
  await expect(editor.menu).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/build/app/${appId}$`));
  await editor.expectSaved();
  expect((await readApp(appId))?.settings).toMatchObject({ dailyUserLimit: 5 });

  await page.reload();
  await editor.openPanel(messages.editorMenuToolSettings, messages.appSettingsToolTitle);
  await expect(daily).toHaveValue("5");
});

test("a weekly run limit lower than the daily one is refused inline and not saved", async ({
  page,
}, info) => {
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, { header: header() });
  await logInAsBuilder(page, builder);
  const editor = new EditorPage(page, appId);
  await editor.goto();
  await editor.openPanel(messages.editorMenuToolSettings, messages.appSettingsToolTitle);

  const daily = page.getByLabel(messages.appSettingsDailyLimit, { exact: true });
  const weekly = page.getByLabel(messages.appSettingsWeeklyLimit, { exact: true });
  await daily.fill("10");
  await expect
    .poll(async () => (await readApp(appId))?.settings?.dailyUserLimit, { timeout: 15_000 })
    .toBe(10);
  await weekly.fill("5");
  await weekly.blur();
  await expect(weekly).toHaveAccessibleDescription(new RegExp(messages.appSettingsWeeklyBelowDaily));
  await expect(weekly).toHaveAttribute("aria-invalid", "true");
  await weekly.evaluate((el) => el.scrollIntoView({ block: "center" }));
  await page.screenshot({ path: info.outputPath("weekly-below-daily.png") });
  // The daily limit cannot be raised over a weekly one either.
  await weekly.fill("20");
  await expect(page.getByText(messages.appSettingsWeeklyBelowDaily)).toHaveCount(0);
  await daily.fill("30");
  await expect(daily).toHaveAccessibleDescription(new RegExp(messages.appSettingsWeeklyBelowDaily));
  await daily.fill("15");
  await expect
    .poll(async () => (await readApp(appId))?.settings, { timeout: 15_000 })
    .toMatchObject({ dailyUserLimit: 15, weeklyUserLimit: 20 });
});
