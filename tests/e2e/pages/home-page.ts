import type { Locator, Page } from "@playwright/test";

/** /home: a builder's landing page. */
export class HomePage {
  readonly heading: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "Your apps" });
  }

  async goto(): Promise<void> {
    await this.page.goto("/home");
  }

  /** "Signed in as {email}" */
  signedInAs(email: string): Locator {
    return this.page.getByText(`Signed in as ${email}`);
  }
}
