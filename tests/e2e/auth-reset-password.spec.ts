import { expect, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { EmailActionPage } from "./pages/email-action-page";
import { HomePage } from "./pages/home-page";
import { LoginPage } from "./pages/login-page";
import { createBuilder } from "./support/db";
import { linkIn, waitForMail } from "./support/mail";
import { toast } from "./support/ui";

test("reset the password from the mailed link; the link works once", async ({ page }) => {
  const user = await createBuilder();
  const newPassword = "copper meadow signal 77";
  const login = new LoginPage(page);
  await login.goto();
  await login.requestPasswordReset(user.email);
  await expect(toast(page, messages.resetEmailSentIfExists)).toBeVisible();

  const link = linkIn(await waitForMail(user.email, { subject: "Reset your password" }));
  const action = new EmailActionPage(page);
  await action.open(link);
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await expect(page.getByText(`For ${user.email}`)).toBeVisible();
  await action.chooseNewPassword(newPassword);
  await expect(toast(page, messages.passwordResetSuccess)).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  // The old password no longer works; the new one does.
  await login.logIn(user.email, user.password);
  await expect(login.error(messages.invalidCredentials)).toBeVisible();
  await login.logIn(user.email, newPassword);
  await expect(page).toHaveURL(/\/home$/);
  await expect(new HomePage(page).signedInAs(user.email)).toBeVisible();

  // Used once, the link is dead: it says so and goes to log in.
  await action.open(link);
  await expect(toast(page, messages.resetLinkInvalid)).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test("a weak new password is refused and the link stays usable", async ({ page }) => {
  const user = await createBuilder();
  const login = new LoginPage(page);
  await login.goto();
  await login.requestPasswordReset(user.email);
  const link = linkIn(await waitForMail(user.email, { subject: "Reset your password" }));

  const action = new EmailActionPage(page);
  await action.open(link);
  await action.chooseNewPassword("password");
  await expect(page.getByRole("alert").filter({ hasText: messages.resetPasswordTooWeak })).toBeVisible();
  await action.chooseNewPassword("amber orchard violin 31");
  await expect(toast(page, messages.passwordResetSuccess)).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test("asking a reset for an unknown email answers the same, and sends nothing", async ({ page }) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.requestPasswordReset("e2e-nobody-at-all@example.com");
  await expect(toast(page, messages.resetEmailSentIfExists)).toBeVisible();
  await expect(waitForMail("e2e-nobody-at-all@example.com", { timeoutMs: 1500 })).rejects.toThrow(/No mail/);
});

test("the reset page opened from the mail renders on the server and runs without errors", async ({
  page,
}) => {
  const user = await createBuilder();
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console: ${msg.text()}`);
  });
  await new LoginPage(page).goto();
  await new LoginPage(page).requestPasswordReset(user.email);
  const link = linkIn(await waitForMail(user.email, { subject: "Reset your password" }));

  // The HTML the server sends already holds the page (it once crashed: "window is not defined").
  const html = await (await page.request.get(link)).text();
  expect(html).toContain("Checking your link...");
  expect(html).not.toContain("window is not defined");

  const action = new EmailActionPage(page);
  await action.open(link);
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  // And the form works, still without an error.
  await action.chooseNewPassword("quartz willow beacon 58");
  await expect(toast(page, messages.passwordResetSuccess)).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect(errors).toEqual([]);
});
