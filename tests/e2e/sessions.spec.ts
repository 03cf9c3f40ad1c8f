import { expect, type Page, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { HomePage } from "./pages/home-page";
import { LoginPage } from "./pages/login-page";
import { SettingsPage } from "./pages/settings-page";
import { createBuilder } from "./support/db";

async function logIn(page: Page, email: string, password: string) {
  const login = new LoginPage(page);
  await login.goto();
  await login.logIn(email, password);
  await expect(page).toHaveURL(/\/home$/);
}

test("logging out ends the session: the old cookie no longer opens the API or the pages", async ({
  page,
  browser,
}) => {
  const user = await createBuilder();
  await logIn(page, user.email, user.password);
  const stolen = await page.context().cookies();

  await page.goto("/logout");
  await expect(page).toHaveURL(/\/login/);

  // Somebody who copied the cookie before the logout gets nothing with it.
  const thief = await browser.newContext();
  await thief.addCookies(stolen);
  const res = await thief.request.get("/api/live_api/account/current");
  expect(res.status()).toBe(401);
  const thiefPage = await thief.newPage();
  await thiefPage.goto("/home");
  await expect(thiefPage).toHaveURL(/\/login/);
  await thief.close();
});

test("'Sign out everywhere' in settings signs out every browser of the account", async ({
  page,
  browser,
}) => {
  const user = await createBuilder();
  await logIn(page, user.email, user.password);
  const laptop = await browser.newContext();
  const laptopPage = await laptop.newPage();
  await logIn(laptopPage, user.email, user.password);

  const settings = new SettingsPage(page);
  await settings.goto();
  const section = page.getByRole("region", { name: messages.sessionsHeading });
  await expect(section.getByText(messages.sessionCurrent)).toBeVisible();
  await expect(section.getByRole("listitem")).toHaveCount(2);

  await section.getByRole("button", { name: messages.signOutEverywhere }).click();
  const dialog = page.getByRole("alertdialog", { name: messages.signOutEverywhereTitle });
  await dialog.getByRole("button", { name: messages.signOutEverywhere }).click();
  await expect(page).toHaveURL(/\/login/);

  expect((await laptop.request.get("/api/live_api/account/current")).status()).toBe(401);
  await laptopPage.goto("/home");
  await expect(laptopPage).toHaveURL(/\/login/);
  await laptop.close();
});

test("signing out one other device leaves this one signed in", async ({ page, browser }) => {
  const user = await createBuilder();
  await logIn(page, user.email, user.password);
  const phone = await browser.newContext();
  await logIn(await phone.newPage(), user.email, user.password);

  await new SettingsPage(page).goto();
  const section = page.getByRole("region", { name: messages.sessionsHeading });
  const other = section.getByRole("listitem").filter({ hasNotText: messages.sessionCurrent });
  await other.getByRole("button", { name: messages.sessionSignOut }).click();
  await expect(page.getByText(messages.sessionSignedOut)).toBeVisible();
  await expect(section.getByRole("listitem")).toHaveCount(1);

  expect((await phone.request.get("/api/live_api/account/current")).status()).toBe(401);
  await page.goto("/home");
  await expect(new HomePage(page).signedInAs(user.email)).toBeVisible();
  await phone.close();
});

test("changing the password in settings signs out the other browsers, not this one", async ({
  page,
  browser,
}) => {
  const user = await createBuilder();
  await logIn(page, user.email, user.password);
  const other = await browser.newContext();
  await logIn(await other.newPage(), user.email, user.password);

  await new SettingsPage(page).goto();
  await page.getByLabel("Your current password", { exact: true }).fill(user.password);
  await page.getByLabel("New password", { exact: true }).fill("amber orchard compass 58");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText(messages.passwordChanged)).toBeVisible();

  expect((await other.request.get("/api/live_api/account/current")).status()).toBe(401);
  expect((await page.request.get("/api/live_api/account/current")).status()).toBe(200);
  await other.close();
});
