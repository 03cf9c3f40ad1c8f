import { expect, type Locator, type Page } from "@playwright/test";
import { HomePage } from "../pages/home-page";
import { LoginPage } from "../pages/login-page";

/** A toast (sonner) showing this text. */
export function toast(page: Page, text: string): Locator {
  return page.locator("[data-sonner-toast]").filter({ hasText: text });
}

/** Logs a builder in through /login and waits for /home. */
export async function logInAsBuilder(page: Page, user: { email: string; password: string }): Promise<void> {
  const login = new LoginPage(page);
  await login.goto();
  await login.logIn(user.email, user.password);
  await expect(page).toHaveURL(/\/home$/);
  await expect(new HomePage(page).heading).toBeVisible();
}
