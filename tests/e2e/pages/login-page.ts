import type { Locator, Page } from "@playwright/test";

/** /login (builders) and /app/{appId}/login's password form share this shape. */
export class LoginPage {
  readonly email: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  readonly forgotPassword: Locator;
  readonly resetEmail: Locator;
  readonly sendResetLink: Locator;

  constructor(readonly page: Page) {
    this.email = page.getByLabel("Email", { exact: true });
    this.password = page.getByLabel("Password", { exact: true });
    this.submit = page.getByRole("button", { name: "Log in", exact: true });
    this.forgotPassword = page.getByRole("button", { name: "Forgot password?" });
    this.resetEmail = page.getByLabel("Email for the reset link");
    this.sendResetLink = page.getByRole("button", { name: "Send reset link" });
  }

  /** The form's error line showing exactly this text. */
  error(text: string): Locator {
    return this.page.getByRole("alert").filter({ hasText: text });
  }

  async goto(query = ""): Promise<void> {
    await this.page.goto(`/login${query}`);
  }

  async logIn(email: string, password: string): Promise<void> {
    await this.email.fill(email);
    await this.password.fill(password);
    await this.submit.click();
  }

  async requestPasswordReset(email: string): Promise<void> {
    await this.forgotPassword.click();
    await this.resetEmail.fill(email);
    await this.sendResetLink.click();
  }
}
