import { expect, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { EmailActionPage } from "./pages/email-action-page";
import { HomePage } from "./pages/home-page";
import { LoginPage } from "./pages/login-page";
import { SettingsPage } from "./pages/settings-page";
import { createBuilder, uniqueEmail } from "./support/db";
import { linkIn, waitForMail } from "./support/mail";
import { logInAsBuilder } from "./support/ui";

test("change the email in /settings: current password required, link to the new address", async ({
  page,
}) => {
  const user = await createBuilder();
  const newEmail = uniqueEmail("changed");
  await logInAsBuilder(page, user);

  const settings = new SettingsPage(page);
  await settings.goto();
  await expect(settings.signsInAs(user.email)).toBeVisible();

  await settings.requestEmailChange(newEmail, "not my password 123");
  await expect(settings.error(messages.currentPasswordWrong)).toBeVisible();

  await settings.requestEmailChange(newEmail, user.password);
  await expect(page.getByRole("status").filter({ hasText: messages.emailChangeSent })).toBeVisible();

  const mail = await waitForMail(newEmail, { subject: "Confirm your new email" });
  const action = new EmailActionPage(page);
  await action.open(linkIn(mail));
  await expect(action.heading(messages.emailUpdated)).toBeVisible();

  await page.getByRole("button", { name: "Go to settings" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(settings.signsInAs(newEmail)).toBeVisible();

  // From now on the new address signs in, the old one does not.
  await page.goto("/logout");
  await expect(page).toHaveURL(/\/login$/);
  const login = new LoginPage(page);
  await login.logIn(user.email, user.password);
  await expect(login.error(messages.invalidCredentials)).toBeVisible();
  await login.logIn(newEmail, user.password);
  await expect(page).toHaveURL(/\/home$/);
  await expect(new HomePage(page).signedInAs(newEmail)).toBeVisible();
});

test("an email that another user has is refused", async ({ page }) => {
  const user = await createBuilder();
  const other = await createBuilder();
  await logInAsBuilder(page, user);
  const settings = new SettingsPage(page);
  await settings.goto();
  await settings.requestEmailChange(other.email, user.password);
  await expect(settings.error(messages.emailInUse)).toBeVisible();
});
