import type { Locator, Page } from "@playwright/test";
import { messages } from "../../../lib/messages";

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The account menu button's name: its visible text (email, plan), then what it is. */
export const accountMenuName = (email: string) =>
  new RegExp(`${escapeRegExp(email)}\\s*\\w+\\s*${escapeRegExp(messages.accountMenu)}$`);

/** The frame of every builder page: navigation and the account menu. */
export class BuilderShell {
  constructor(readonly page: Page) {}

  accountMenu(email: string, opts: { includeHidden?: boolean } = {}): Locator {
    return this.page.getByRole("button", { name: accountMenuName(email), ...opts });
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
