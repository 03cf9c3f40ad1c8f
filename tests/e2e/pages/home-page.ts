import { expect, type Locator, type Page } from "@playwright/test";
import { messages } from "../../../lib/messages";
import { fillTemplate } from "../../../lib/text";

/** The three kinds of the Create app dialog, by their labels. */
export const APP_KIND_LABELS = {
  tool: messages.appKindTool,
  generated: messages.appKindGenerated,
  space: messages.appKindSpace,
} as const;
export type AppKindName = keyof typeof APP_KIND_LABELS;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** /home: a builder's landing page, their apps with create and delete. */
export class HomePage {
  readonly heading: Locator;
  /** "Create app" on the page (the header's, or the empty state's when there are no apps). */
  readonly createAppButton: Locator;
  readonly createDialog: Locator;
  readonly emptyState: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "Your apps" });
    this.createAppButton = page.getByRole("main").getByRole("button", { name: messages.createApp });
    this.createDialog = page.getByRole("dialog", { name: messages.createAppTitle });
    this.emptyState = page.getByRole("heading", { name: messages.homeEmptyTitle });
  }

  async goto(): Promise<void> {
    await this.page.goto("/home");
  }

  /** "Signed in as {email}" */
  signedInAs(email: string): Locator {
    return this.page.getByText(`Signed in as ${email}`);
  }

  /**
   * Create app: picks the kind, names the app, submits; resolves with the new app's id once the
   * editor is open.
   */
  async createApp(kind: AppKindName, name: string): Promise<string> {
    await this.createAppButton.click();
    const dialog = this.createDialog;
    await expect(dialog).toBeVisible();
    // The radio's name is the kind's label followed by its hint.
    await dialog.getByRole("radio", { name: new RegExp(`^${escapeRegExp(APP_KIND_LABELS[kind])}`) }).check();
    await dialog.getByLabel(messages.createAppName, { exact: true }).fill(name);
    await dialog.getByRole("button", { name: messages.createApp }).click();
    await expect(this.page).toHaveURL(/\/build\/app\/[0-9a-f-]{36}$/);
    return this.page.url().split("/").at(-1)!;
  }

  /** One app's card, found by its name. */
  appCard(name: string): Locator {
    return this.page
      .getByRole("listitem")
      .filter({ has: this.page.getByRole("link", { name, exact: true }) });
  }

  /** Delete app from the card's menu, confirmed in the dialog. */
  async deleteApp(name: string): Promise<void> {
    await this.appCard(name)
      .getByRole("button", { name: fillTemplate(messages.appActions, { name }) })
      .click();
    await this.page.getByRole("menuitem", { name: messages.appDelete }).click();
    const confirm = this.page.getByRole("alertdialog", {
      name: fillTemplate(messages.appDeleteTitle, { name }),
    });
    await expect(confirm).toContainText(messages.appDeleteDescription);
    await confirm.getByRole("button", { name: messages.appDelete }).click();
  }
}
