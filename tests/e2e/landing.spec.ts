import { expect, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { createBuilder } from "./support/db";
import { logInAsBuilder } from "./support/ui";

// / is the product's front page: what it does and the way in; a signed-in builder gets a link to
// their apps instead, never a redirect.

test("a visitor reads what the product does and finds sign up and log in", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1, name: messages.landingTitle })).toBeVisible();
  await expect(page.getByText(messages.landingLead)).toBeVisible();
  await expect(page.getByRole("link", { name: messages.landingOpenApps })).toHaveCount(0);

  await page.getByRole("link", { name: messages.landingCreateAccount }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await page.goto("/");
  await page.getByRole("main").getByRole("link", { name: messages.landingLogIn }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test("a signed-in builder sees a link to their apps, and stays on the page", async ({ page }) => {
  await logInAsBuilder(page, await createBuilder());
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: messages.landingCreateAccount })).toHaveCount(0);
  await page.getByRole("main").getByRole("link", { name: messages.landingOpenApps }).click();
  await expect(page).toHaveURL(/\/home$/);
});

test("an unknown address answers 404 with a way back", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: messages.notFoundTitle })).toBeVisible();
  await page.getByRole("link", { name: messages.notFoundHome }).click();
  await expect(page).toHaveURL(/\/$/);
});
