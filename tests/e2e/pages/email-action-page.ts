import type { Locator, Page } from "@playwright/test";

/**
 * /auth/handler: every emailed link lands here (verify email, reset password, confirm an
 * email change, magic link). The page runs the action the link names.
 */
export class EmailActionPage {
  readonly newPassword: Locator;
  readonly resetPassword: Locator;
  readonly continue: Locator;

  constructor(readonly page: Page) {
    this.newPassword = page.getByLabel("New password", { exact: true });
    this.resetPassword = page.getByRole("button", { name: "Reset password", exact: true });
    this.continue = page.getByRole("button", { name: "Continue", exact: true });
  }

  async open(link: string): Promise<void> {
    // Links are absolute (built from APP_URL); the test's baseURL is the same origin.
    await this.page.goto(link);
  }

  heading(text: string): Locator {
    return this.page.getByRole("heading", { name: text, exact: true });
  }

  async chooseNewPassword(password: string): Promise<void> {
    await this.newPassword.fill(password);
    await this.resetPassword.click();
  }
}
