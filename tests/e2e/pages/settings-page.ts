import type { Locator, Page } from "@playwright/test";

/** /settings: account settings; changing the email needs the current password. */
export class SettingsPage {
  readonly heading: Locator;
  readonly newEmail: Locator;
  readonly currentPassword: Locator;
  readonly changeEmail: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "Account settings" });
    this.newEmail = page.getByLabel("New email", { exact: true });
    this.currentPassword = page.getByLabel("Current password", { exact: true });
    this.changeEmail = page.getByRole("button", { name: "Change email", exact: true });
  }

  async goto(): Promise<void> {
    await this.page.goto("/settings");
  }

  async requestEmailChange(newEmail: string, currentPassword: string): Promise<void> {
    await this.newEmail.fill(newEmail);
    await this.currentPassword.fill(currentPassword);
    await this.changeEmail.click();
  }

  error(text: string): Locator {
    return this.page.getByRole("alert").filter({ hasText: text });
  }

  /** "You sign in as {email}" */
  signsInAs(email: string): Locator {
    return this.page.getByText(`You sign in as ${email}`);
  }
}
