import { expect, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { LoginPage } from "./pages/login-page";

// The harness itself: the production build answers, pages render, APIs speak JSON.

test("the login page renders a form with an email field", async ({ page }) => {
  const login = new LoginPage(page);
  await login.goto();
  await expect(login.email).toBeVisible();
  await expect(login.email).toHaveAttribute("type", "email");
  await expect(login.password).toBeVisible();
  await expect(login.submit).toBeEnabled();
});

test("account/current answers 401 JSON to an anonymous caller", async ({ request }) => {
  const res = await request.get("/api/live_api/account/current");
  expect(res.status()).toBe(401);
  expect(res.headers()["content-type"]).toContain("application/json");
  expect((await res.json()).error).toMatchObject({ message: messages.unauthenticated });
});

test("builder pages send an anonymous visitor to log in, remembering where they were going", async ({
  page,
}) => {
  await page.goto("/home");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fhome$/);
});
