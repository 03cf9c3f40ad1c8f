import crypto from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { fillTemplate } from "../../lib/text";
import { EditorPage } from "./pages/editor-page";
import { HomePage } from "./pages/home-page";
import { appsOwnedBy, createApp, createBuilder, readApp } from "./support/db";
import { logInAsBuilder, toast } from "./support/ui";

// Claim invitations: an admin publishes an app, makes it claimable,
// copies the invite link; another builder opens it, claims the app and owns it; the link then
// no longer works.

test.use({ viewport: { width: 1280, height: 900 }, permissions: ["clipboard-read", "clipboard-write"] });

/** An admin's app in the editor, on its Tool settings panel. */
async function adminSettings(page: Page, status: "active" | "draft" = "draft") {
  const admin = await createBuilder({ isAdmin: true });
  const app = await createApp(admin, { header: `Claim me ${crypto.randomUUID().slice(0, 6)}`, status });
  await logInAsBuilder(page, admin);
  const editor = new EditorPage(page, app.appId);
  await editor.goto();
  return { admin, ...app, editor };
}

async function turnOnClaimable(page: Page, editor: EditorPage) {
  await editor.openPanel(messages.editorMenuToolSettings, messages.appSettingsToolTitle);
  const claimable = page.getByRole("switch", { name: messages.appSettingsClaimable, exact: true });
  await claimable.click();
  await expect(claimable).toBeChecked();
  return page.getByRole("button", { name: messages.appSettingsInvite });
}

test("an admin copies the invite of a published, claimable app; another builder claims it once", async ({
  page,
  browser,
}) => {
  const { admin, appId, header, editor } = await adminSettings(page);
  await editor.publishApp();
  const invite = await turnOnClaimable(page, editor);
  await invite.click();
  await expect(toast(page, messages.inviteCopied)).toBeVisible();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toMatch(/^http:\/\/localhost:\d+\/claim\/.+/);
  expect((await readApp(appId))?.settings).toMatchObject({ isClaimable: true });

  // The admin opening their own invitation is told it is theirs.
  await page.goto(link);
  await expect(page.getByText(messages.claimOwnApp)).toBeVisible();

  // Another builder, in their own browser.
  const other = await createBuilder();
  const theirs = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await logInAsBuilder(theirs, other);
  await theirs.goto(link);
  await expect(
    theirs.getByRole("heading", { name: fillTemplate(messages.claimTitle, { name: header }) }),
  ).toBeVisible();
  await expect(theirs.getByText(messages.claimDescription)).toBeVisible();
  await theirs.getByRole("button", { name: messages.claimButton }).click();
  await expect(toast(theirs, messages.claimed)).toBeVisible();
  await expect(theirs).toHaveURL(new RegExp(`/build/app/${appId}$`));
  await expect(new EditorPage(theirs, appId).title).toHaveText(header);

  expect((await readApp(appId))?.owner_account_id).toBe(other.accountId);
  expect(await appsOwnedBy(other.accountId!)).toEqual([appId]);
  expect(await appsOwnedBy(admin.accountId!)).toEqual([]);
  const home = new HomePage(theirs);
  await home.goto();
  await expect(home.appCard(header)).toBeVisible();

  // Single use: the link is spent.
  await theirs.goto(link);
  await expect(theirs.getByRole("alert").filter({ hasText: messages.claimInvalid })).toBeVisible();
  await expect(theirs.getByRole("button", { name: messages.claimButton })).toHaveCount(0);
  const third = await (await browser.newContext()).newPage();
  await logInAsBuilder(third, await createBuilder());
  await third.goto(link);
  await expect(third.getByRole("alert").filter({ hasText: messages.claimInvalid })).toBeVisible();
  await third.context().close();
  await theirs.context().close();
});

test("an unpublished app's invite cannot be copied", async ({ page }) => {
  const { editor } = await adminSettings(page, "draft");
  const invite = await turnOnClaimable(page, editor);
  await invite.click();
  await expect(toast(page, messages.inviteNotPublished)).toBeVisible();
});

test("a made-up invitation link is refused", async ({ page }) => {
  await logInAsBuilder(page, await createBuilder());
  await page.goto(`/claim/${crypto.randomUUID()}.not-a-real-code`);
  await expect(page.getByRole("alert").filter({ hasText: messages.claimInvalid })).toBeVisible();
  await page.getByRole("link", { name: messages.claimGoHome }).click();
  await expect(page).toHaveURL(/\/home$/);
});
