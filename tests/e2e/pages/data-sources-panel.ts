import { expect, type Locator, type Page } from "@playwright/test";
import { messages } from "../../../lib/messages";
import { fillTemplate } from "../../../lib/text";

/** A file for an <input type="file">, made in the test. */
export type FilePayload = { name: string; mimeType: string; buffer: Buffer };

/**
 * The editor's Data sources panel (?panel=data-sources): the app's data sources with their live
 * status, and the Add data dialog with its kinds (Text, Items List (CSV), Doc, Website, Notion,
 * Google Drive).
 */
export class DataSourcesPanel {
  readonly heading: Locator;
  readonly addData: Locator;
  readonly list: Locator;
  readonly emptyTitle: Locator;
  readonly dialog: Locator;
  readonly progress: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", {
      level: 2,
      name: messages.editorDataSourcesTitle,
      exact: true,
    });
    this.addData = page.getByRole("button", { name: messages.dataSourcesAdd, exact: true });
    this.list = page.getByRole("list", { name: messages.dataSourcesList });
    this.emptyTitle = page.getByRole("heading", { name: messages.dataSourcesEmptyTitle });
    this.dialog = page.getByRole("dialog", { name: messages.dataSourcesDialogTitle });
    this.progress = this.dialog.getByRole("progressbar", { name: messages.dataSourceUploadProgress });
  }

  /** Waits until the list (or its empty state) is shown. */
  async ready(): Promise<void> {
    await expect(this.heading).toBeVisible();
    await expect(this.addData).toBeVisible();
  }

  /** An item of the list, by its name. */
  row(name: string): Locator {
    return this.list.getByRole("listitem").filter({ has: this.page.getByText(name, { exact: true }) });
  }

  /** An item's status badge (its `data-status` is the raw status). */
  status(name: string): Locator {
    return this.row(name).locator("[data-status]");
  }

  /** Opens the dialog and picks a kind of data. */
  async choose(kind: string): Promise<void> {
    if (!(await this.dialog.isVisible())) await this.addData.click();
    await expect(this.dialog).toBeVisible();
    await this.dialog.getByRole("button", { name: kind, exact: true }).click();
    await expect(this.dialog.getByRole("heading", { level: 3, name: kind, exact: true })).toBeVisible();
  }

  get text(): Locator {
    return this.dialog.getByLabel(messages.dataSourceTextLabel, { exact: true });
  }

  submit(label: string): Locator {
    return this.dialog.getByRole("button", { name: label, exact: true });
  }

  /** The dialog's message of a refusal or failure. */
  error(text: string): Locator {
    return this.dialog.getByText(text, { exact: true });
  }

  async addText(text: string): Promise<void> {
    await this.choose(messages.dataSourceOptionText);
    await this.text.fill(text);
    await this.submit(messages.dataSourceTextSubmit).click();
  }

  /** Chooses a file in the open file form (as the hidden input receives it from the picker). */
  async chooseFile(file: FilePayload): Promise<void> {
    await this.dialog.locator('input[type="file"]').setInputFiles(file);
  }

  async uploadFile(kind: string, file: FilePayload): Promise<void> {
    await this.choose(kind);
    await this.chooseFile(file);
    await this.submit(messages.dataSourceFileSubmit).click();
  }

  /** Runs an action of an item's menu (Rename, Replace, Sync again, Delete). */
  async action(name: string, action: string): Promise<void> {
    await this.row(name)
      .getByRole("button", { name: fillTemplate(messages.dataSourceActions, { name }) })
      .click();
    await this.page.getByRole("menuitem", { name: action, exact: true }).click();
  }

  renameField(name: string): Locator {
    return this.page.getByLabel(fillTemplate(messages.dataSourceRenameLabel, { name }), { exact: true });
  }
}
