import type { Locator, Page } from "@playwright/test";
import { messages } from "../../../lib/messages";

/** The frame of every builder page: navigation and the account menu. */
export class BuilderShell {
  constructor(readonly page: Page) {}

  accountMenu(email: string): Locator {
    return this.page.getByRole("button", { name: `${messages.accountMenu}: ${email}` });
  }

  async openSettings(email: string): Promise<void> {
    await this.accountMenu(email).click();
    await this.page.getByRole("menuitem", { name: "Settings" }).click();
  }

  async logOut(email: string): Promise<void> {
    await this.accountMenu(email).click();
    await this.page.getByRole("menuitem", { name: "Log out" }).click();
  }
}
