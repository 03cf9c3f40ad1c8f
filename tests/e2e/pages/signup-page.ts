import type { Locator, Page } from "@playwright/test";

/** /signup: email and password, then straight into the sign-in path. */
export class SignupPage {
  readonly email: Locator;
  readonly password: Locator;
  readonly submit: Locator;

  constructor(readonly page: Page) {
    this.email = page.getByLabel("Email", { exact: true });
    this.password = page.getByLabel("Password", { exact: true });
    this.submit = page.getByRole("button", { name: "Sign up", exact: true });
  }

  async goto(query = ""): Promise<void> {
    await this.page.goto(`/signup${query}`);
  }

  async signUp(email: string, password: string): Promise<void> {
    await this.email.fill(email);
    await this.password.fill(password);
    await this.submit.click();
  }

  error(text: string): Locator {
    return this.page.getByRole("alert").filter({ hasText: text });
  }
}
