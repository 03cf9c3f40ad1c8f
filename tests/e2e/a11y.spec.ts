import { expect, type Page, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { THEME_COOKIE, THEME_COOKIE_MAX_AGE_S } from "../../lib/theme";
import { EmailActionPage } from "./pages/email-action-page";
import { LoginPage } from "./pages/login-page";
import { expectNoA11yViolations } from "./support/axe";
import { createBuilder, createPublishedApp } from "./support/db";
import { linkIn, waitForMail } from "./support/mail";
import { logInAsBuilder } from "./support/ui";

async function expectNoHorizontalScroll(page: Page, where: string): Promise<void> {
  const [scrollWidth, clientWidth] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(scrollWidth, `${where} scrolls sideways`).toBeLessThanOrEqual(clientWidth);
}

// axe on every page, in both colour themes: 0 violations. (/dev/outbox does not exist in
// production, where these tests run.)

for (const colorScheme of ["light", "dark"] as const) {
  test.describe(`${colorScheme} theme`, () => {
    test.use({ colorScheme });
    // axe takes seconds a page on two cores shared with the server and the other worker.
    test.describe.configure({ timeout: 120_000 });

    async function check(page: Page, path: string, ready: () => Promise<void>) {
      await page.goto(path);
      await ready();
      await expect(page.locator("html")).toHaveAttribute("data-theme", "system");
      await expectNoA11yViolations(page, `${path} (${colorScheme})`);
    }

    const heading = (page: Page, name: string | RegExp) => () =>
      expect(page.getByRole("heading", { name }).first()).toBeVisible();

    test("public pages", async ({ page }) => {
      const { appId } = await createPublishedApp("Axe App");
      await check(page, "/", heading(page, messages.landingTitle));
      await check(page, "/login", () => expect(new LoginPage(page).submit).toBeVisible());
      await check(page, "/signup", () =>
        expect(page.getByRole("button", { name: /sign up/i })).toBeVisible(),
      );
      await check(page, "/no-such-page", heading(page, messages.notFoundTitle));
      await check(page, "/error/unauthorized", heading(page, /./));
      await check(page, `/app/${appId}`, heading(page, /./));
      await check(page, `/app/${appId}/login`, heading(page, /./));
      await check(page, `/app/${appId}/signup`, heading(page, /./));
    });

    test("the pages emailed links open", async ({ page }) => {
      // Every mode of the page emailed links land on, as a stale or broken link shows it.
      await check(page, "/auth/handler", heading(page, "Nothing to do here"));
      await check(
        page,
        "/auth/handler?mode=verifyEmail&oobCode=nope",
        heading(page, messages.verificationFailed),
      );
      await check(page, "/auth/handler?mode=signIn&oobCode=nope", heading(page, "Sign-in failed"));
      await check(
        page,
        "/auth/handler?mode=verifyAndChangeEmail&oobCode=nope&newEmail=e2e-new%40example.com",
        heading(page, "Email not changed"),
      );
    });

    test("the reset page and the signing-out page", async ({ page }) => {
      const user = await createBuilder();
      await new LoginPage(page).goto();
      await new LoginPage(page).requestPasswordReset(user.email);
      const link = linkIn(await waitForMail(user.email, { subject: "Reset your password" }));
      await new EmailActionPage(page).open(link);
      await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
      await expectNoA11yViolations(page, `reset page (${colorScheme})`);

      // The signing-out card stays up while the sign-out request is held.
      await logInAsBuilder(page, user);
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route("**/api/auth/signout", async (route) => {
        await held;
        await route.continue();
      });
      await page.goto("/logout");
      await expect(page.getByRole("heading", { name: messages.loggingOut })).toBeVisible();
      await expectNoA11yViolations(page, `/logout (${colorScheme})`);
      release();
      await expect(page).toHaveURL(/\/login$/);
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

    test("at 375 px, with nothing wider than the screen", async ({ page }) => {
      await page.setViewportSize({ width: 375, height: 800 });
      const user = await createBuilder();
      await check(page, "/", () => expect(page.getByRole("heading", { level: 1 })).toBeVisible());
      await expectNoHorizontalScroll(page, "/");
      await logInAsBuilder(page, user);
      await check(page, "/joinplan", () => expect(page.getByRole("heading").first()).toBeVisible());
      await expectNoHorizontalScroll(page, "/joinplan");
      // One card a row: every card starts at the same x.
      const lefts = await page
        .locator("li[data-plan]")
        .evaluateAll((cards) => cards.map((c) => Math.round(c.getBoundingClientRect().left)));
      expect(new Set(lefts).size).toBe(1);
      await page.goto("/home?goto=upgrade_app_plan");
      const dialog = page.getByRole("dialog");
      await expect(dialog.locator("li[data-plan]").first()).toBeVisible();
      await expectNoA11yViolations(page, `upgrade dialog at 375 px (${colorScheme})`);
      const box = await dialog.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    });
  });
}

test("the theme toggle applies at once, is remembered for a year, and follows the system otherwise", async ({
  browser,
}) => {
  const context = await browser.newContext({ colorScheme: "dark" });
  const page = await context.newPage();
  await page.goto("/login");
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const toggle = page.getByRole("radiogroup", { name: messages.themeLabel });
  const option = (name: string) => toggle.getByRole("radio", { name });
  // "System" by default, and the system here is dark.
  await expect(option(messages.themeSystem)).toBeChecked();
  expect(await background()).toBe("rgb(9, 9, 11)");
  await option(messages.themeLight).click();
  expect(await background()).toBe("rgb(255, 255, 255)");
  await expect(option(messages.themeLight)).toBeChecked();
  const cookie = (await context.cookies()).find((c) => c.name === THEME_COOKIE);
  expect(cookie).toMatchObject({ value: "light", path: "/", sameSite: "Lax", secure: false });
  // A year from now (a minute of slack for the test's own pace).
  expect(Math.abs((cookie?.expires ?? 0) - (Date.now() / 1000 + THEME_COOKIE_MAX_AGE_S))).toBeLessThan(60);

  // The server renders the choice itself, the page and the toggle: nothing flashes on load.
  const html = await (await page.request.get("/login")).text();
  expect(html.match(/<html[^>]*>/)?.[0]).toContain('data-theme="light"');
  const checkedRadios = (html.match(/<input[^>]*type="radio"[^>]*>/g) ?? [])
    .filter((input) => input.includes('checked=""'))
    .map((input) => input.match(/value="(\w+)"/)?.[1]);
  expect(checkedRadios).toEqual(["light"]);
  await page.reload();
  expect(await background()).toBe("rgb(255, 255, 255)");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");

  // From the keyboard: one tab stop, the arrow keys move and choose.
  await option(messages.themeLight).focus();
  await page.keyboard.press("ArrowRight");
  await expect(option(messages.themeDark)).toBeChecked();
  await expect(option(messages.themeDark)).toBeFocused();
  expect(await background()).toBe("rgb(9, 9, 11)");
  await page.goto("/");
  expect(await background()).toBe("rgb(9, 9, 11)");
  await context.close();
});
