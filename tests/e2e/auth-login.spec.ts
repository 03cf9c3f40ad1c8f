import { expect, test } from "@playwright/test";
import { LOGIN_FAILURES_PER_ACCOUNT_AND_IP } from "../../lib/constants";
import { messages } from "../../lib/messages";
import { HomePage } from "./pages/home-page";
import { LoginPage } from "./pages/login-page";
import { SettingsPage } from "./pages/settings-page";
import { createApp, createBuilder, disableUser, uniqueEmail } from "./support/db";
import { collectHydrationErrors } from "./support/hydration";

test("a wrong password, or an unknown email, shows the same message and stays on /login", async ({
  page,
}) => {
  const user = await createBuilder();
  const login = new LoginPage(page);
  await login.goto();

  await login.logIn(user.email, "not the right password 1");
  await expect(login.error(messages.invalidCredentials)).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await login.logIn(uniqueEmail("nobody"), "not the right password 1");
  await expect(login.error(messages.invalidCredentials)).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  // The right password still works afterwards.
  await login.logIn(user.email, user.password);
  await expect(page).toHaveURL(/\/home$/);
  await expect(new HomePage(page).signedInAs(user.email)).toBeVisible();
});

test(`${LOGIN_FAILURES_PER_ACCOUNT_AND_IP} wrong passwords lock the account for this browser's address`, async ({
  page,
}) => {
  const user = await createBuilder();
  const login = new LoginPage(page);
  await login.goto();
  for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT_AND_IP; i++) {
    const answered = page.waitForResponse((r) => r.url().includes("/api/auth/callback/password"));
    await login.logIn(user.email, `wrong password ${i} x`);
    await answered;
    await expect(login.error(messages.invalidCredentials)).toBeVisible();
  }
  // Even the right password is refused until the window has passed.
  await login.logIn(user.email, user.password);
  await expect(login.error(messages.tooManyLoginAttempts)).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test("a disabled user is told so", async ({ page }) => {
  const user = await createBuilder();
  await disableUser(user.email);
  const login = new LoginPage(page);
  await login.goto();
  await login.logIn(user.email, user.password);
  await expect(login.error(messages.userDisabled)).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test("after login the user goes to redirectTo when it is on our site", async ({ page }) => {
  const user = await createBuilder();
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fsettings$/);
  await new LoginPage(page).logIn(user.email, user.password);
  await expect(page).toHaveURL(/\/settings$/);
  await expect(new SettingsPage(page).heading).toBeVisible();
});

// Open redirect: a redirectTo that leaves our origin is ignored; the user lands on /home.
for (const target of ["//evil.com", "https://evil.com/login", "/\\evil.com", "javascript:alert(1)"]) {
  test(`redirectTo=${target} ends on /home`, async ({ page, baseURL }) => {
    const user = await createBuilder();
    const login = new LoginPage(page);
    await login.goto(`?redirectTo=${encodeURIComponent(target)}`);
    await login.logIn(user.email, user.password);
    await expect(page).toHaveURL(`${baseURL}/home`);
    await expect(new HomePage(page).heading).toBeVisible();
  });
}

// The sign-in pages render the same HTML on the server and in the browser, whatever the
// visitor's time zone, language or colour scheme: no hydration mismatch in the console.
for (const visitor of [
  { locale: "en-US", timezoneId: "UTC", colorScheme: "light" as const },
  { locale: "de-DE", timezoneId: "Pacific/Auckland", colorScheme: "dark" as const },
]) {
  test(`no hydration mismatch on the sign-in pages and a builder's first pages (${visitor.locale}, ${visitor.timezoneId}, ${visitor.colorScheme})`, async ({
    browser,
  }) => {
    const user = await createBuilder();
    // An app, so the home page lists one with its relative time.
    await createApp(user, { header: "Hydration check" });
    const context = await browser.newContext(visitor);
    const page = await context.newPage();
    const errors = collectHydrationErrors(page);
    for (const path of ["/login", "/login?redirectTo=%2Fhome", "/signup", "/"]) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
    }
    // A theme chosen and remembered, then the page loaded again.
    await page.goto("/login");
    await page.getByRole("radio", { name: messages.themeDark }).check();
    await page.reload();
    await page.waitForLoadState("networkidle");
    // Signed in: the first pages a builder sees, each loaded afresh.
    await new LoginPage(page).logIn(user.email, user.password);
    await expect(page).toHaveURL(/\/home$/);
    for (const path of ["/home", "/settings", "/joinplan"]) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
    }
    expect(errors).toEqual([]);
    await context.close();
  });
}
