import type { Locator, Page } from "@playwright/test";
import { messages } from "../../../lib/messages";

/** /error/unauthorized?paymentId=: account creation kept answering 401; the user is signed out. */
export class UnauthorizedPage {
  readonly explanation: Locator;
  readonly backToLogin: Locator;

  constructor(readonly page: Page) {
    this.explanation = page.getByText(messages.accountCreateFailed, { exact: true });
    this.backToLogin = page.getByRole("link", { name: "Back to log in" });
  }

  /** The "Payment reference: {id}" line. */
  paymentReference(paymentId: string): Locator {
    return this.page.getByText("Payment reference:").filter({ hasText: paymentId });
  }
}
