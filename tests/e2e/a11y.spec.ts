import { expect, type Page, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { EmailActionPage } from "./pages/email-action-page";
import { LoginPage } from "./pages/login-page";
import { expectNoA11yViolations } from "./support/axe";
import { createBuilder, createPublishedApp } from "./support/db";
import { linkIn, waitForMail } from "./support/mail";
import { logInAsBuilder } from "./support/ui";

// axe on every page, in both colour themes: 0 violations. (/dev/outbox does not exist in
// production, where these tests run.)

for (const colorScheme of ["light", "dark"] as const) {
  test.describe(`${colorScheme} theme`, () => {
    test.use({ colorScheme });

    async function check(page: Page, path: string, ready: () => Promise<void>) {
      await page.goto(path);
      await ready();
      await expect(page.locator("html")).toHaveAttribute("data-theme", "system");
      await expectNoA11yViolations(page, `${path} (${colorScheme})`);
    }

    test("public pages", async ({ page }) => {
      const { appId } = await createPublishedApp("Axe App");
      const heading = (name: string | RegExp) => () =>
        expect(page.getByRole("heading", { name }).first()).toBeVisible();
      await check(page, "/", heading(messages.landingTitle));
      await check(page, "/login", () => expect(new LoginPage(page).submit).toBeVisible());
      await check(page, "/signup", () =>
        expect(page.getByRole("button", { name: /sign up/i })).toBeVisible(),
      );
      await check(page, "/no-such-page", heading(messages.notFoundTitle));
      await check(page, "/error/unauthorized", heading(/./));
      await check(page, "/auth/handler?mode=verifyEmail&oobCode=nope", heading(messages.verificationFailed));
      await check(page, `/app/${appId}`, heading(/./));
      await check(page, `/app/${appId}/login`, heading(/./));
      await check(page, `/app/${appId}/signup`, heading(/./));
    });

    test("the reset page and the signing-out page", async ({ page }) => {
      const user = await createBuilder();
      await new LoginPage(page).goto();
      await new LoginPage(page).requestPasswordReset(user.email);
      const link = linkIn(await waitForMail(user.email, { subject: "Reset your password" }));
      await new EmailActionPage(page).open(link);
      await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
      await expectNoA11yViolations(page, `reset page (${colorScheme})`);
    });

    test("verify email page of an unverified builder", async ({ page }) => {
      const user = await createBuilder({ verified: false });
      const login = new LoginPage(page);
      await login.goto();
      await login.logIn(user.email, user.password);
      await expect(page).toHaveURL(/\/auth\/verifyEmail/);
      await expect(page.getByRole("heading").first()).toBeVisible();
      await expectNoA11yViolations(page, `/auth/verifyEmail (${colorScheme})`);
    });

    test("builder pages, the account menu and the upgrade dialog", async ({ page }) => {
      const user = await createBuilder();
      await logInAsBuilder(page, user);
      await expectNoA11yViolations(page, `/home (${colorScheme})`);
      await check(page, "/settings", () => expect(page.getByText(messages.sessionCurrent)).toBeVisible());
      await check(page, "/joinplan", () => expect(page.getByRole("heading").first()).toBeVisible());
      await page.goto("/home?goto=upgrade_app_plan");
      await expect(page.getByRole("dialog")).toBeVisible();
      await expectNoA11yViolations(page, `upgrade dialog (${colorScheme})`);
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: new RegExp(messages.accountMenu) }).click();
      await expect(page.getByRole("menu")).toBeVisible();
      await expectNoA11yViolations(page, `account menu (${colorScheme})`, '[role="menu"]');
    });

    test("at 375 px", async ({ page }) => {
      await page.setViewportSize({ width: 375, height: 800 });
      const user = await createBuilder();
      await check(page, "/", () => expect(page.getByRole("heading", { level: 1 })).toBeVisible());
      await logInAsBuilder(page, user);
      await check(page, "/joinplan", () => expect(page.getByRole("heading").first()).toBeVisible());
    });
  });
}

test("the theme toggle applies at once, is remembered after a reload, and follows the system otherwise", async ({
  browser,
}) => {
  const context = await browser.newContext({ colorScheme: "dark" });
  const page = await context.newPage();
  await page.goto("/login");
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  // "System" by default, and the system here is dark.
  expect(await background()).toBe("rgb(9, 9, 11)");
  const toggle = page.getByRole("radiogroup", { name: messages.themeLabel });
  await toggle.getByRole("radio", { name: messages.themeLight }).click();
  expect(await background()).toBe("rgb(255, 255, 255)");
  await expect(toggle.getByRole("radio", { name: messages.themeLight })).toHaveAttribute(
    "aria-checked",
    "true",
  );
  await page.reload();
  expect(await background()).toBe("rgb(255, 255, 255)");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  await page
    .getByRole("radiogroup", { name: messages.themeLabel })
    .getByRole("radio", { name: messages.themeDark })
    .click();
  await page.goto("/");
  expect(await background()).toBe("rgb(9, 9, 11)");
  await context.close();
});
