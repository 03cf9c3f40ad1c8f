import type { Locator, Page } from "@playwright/test";

/** /app/{appId}/login: an end user signs in to one published app with an emailed 6-digit code. */
export class AppLoginPage {
  readonly heading: Locator;
  readonly email: Locator;
  readonly sendCode: Locator;
  readonly code: Locator;
  readonly signIn: Locator;

  constructor(
    readonly page: Page,
    readonly appId: string,
  ) {
    this.heading = page.getByRole("heading", { name: /^Sign in to / });
    this.email = page.getByLabel("Email", { exact: true });
    this.sendCode = page.getByRole("button", { name: "Email me a sign-in code" });
    this.code = page.getByLabel("Sign-in code");
    this.signIn = page.getByRole("button", { name: "Sign in", exact: true });
  }

  async goto(): Promise<void> {
    await this.page.goto(`/app/${this.appId}/login`);
  }

  async requestCode(email: string): Promise<void> {
    await this.email.fill(email);
    await this.sendCode.click();
  }

  async enterCode(code: string): Promise<void> {
    await this.code.fill(code);
    await this.signIn.click();
  }

  error(text: string): Locator {
    return this.page.getByRole("alert").filter({ hasText: text });
  }
}
