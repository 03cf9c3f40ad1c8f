import type { Locator, Page } from "@playwright/test";
import { messages } from "../../../lib/messages";

const fill = (template: string, email: string) => template.replace("{email}", email);

/** /admin/builders: the operator's list of builders with a plan picker and an admin switch each. */
export class AdminBuildersPage {
  readonly heading: Locator;
  readonly search: Locator;
  readonly rows: Locator;
  readonly adminOnly: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: messages.adminBuildersTitle });
    this.search = page.getByLabel(messages.adminBuildersSearch);
    this.rows = page.getByTestId("admin-builder");
    this.adminOnly = page.getByRole("heading", { level: 1, name: messages.adminOnlyTitle });
  }

  async goto(): Promise<void> {
    await this.page.goto("/admin/builders");
  }

  row(email: string): Locator {
    return this.rows.filter({ hasText: email });
  }

  planOf(email: string): Locator {
    return this.page.getByRole("combobox", { name: fill(messages.adminBuildersPlanOf, email) });
  }

  adminSwitchOf(email: string): Locator {
    return this.page.getByRole("switch", { name: fill(messages.adminBuildersAdminOf, email) });
  }

  async choosePlan(email: string, planName: string): Promise<void> {
    await this.planOf(email).click();
    await this.page.getByRole("option", { name: planName, exact: true }).click();
  }
}
