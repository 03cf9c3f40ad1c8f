import type { Locator, Page } from "@playwright/test";

/** /auth/verifyEmail: where an unverified builder waits for the verification link. */
export class VerifyEmailPage {
  readonly heading: Locator;
  readonly verifiedButton: Locator;
  readonly resend: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "Verify your email" });
    this.verifiedButton = page.getByRole("button", { name: "I've verified my email" });
    this.resend = page.getByRole("button", { name: "Resend verification email" });
  }
}
