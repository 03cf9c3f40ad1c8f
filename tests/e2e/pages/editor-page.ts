import { expect, type Locator, type Page } from "@playwright/test";
import { messages } from "../../../lib/messages";
import { fillTemplate } from "../../../lib/text";

/**
 * /build/app/{appId}: the app editor. The main panel is a menu of panels; the toolbar has the
 * save indicator ('Saving...', then 'Published' / 'Not published') and Publish.
 */
export class EditorPage {
  /** The app's name in the toolbar (the preview beside the panel has its own h1, after it). */
  readonly title: Locator;
  readonly indicator: Locator;
  readonly menu: Locator;
  readonly backToMenu: Locator;
  readonly publish: Locator;
  readonly unpublish: Locator;
  readonly conflictDialog: Locator;
  // Texts panel
  readonly header: Locator;
  readonly description: Locator;
  readonly instructions: Locator;
  readonly addExample: Locator;

  constructor(
    readonly page: Page,
    readonly appId: string,
  ) {
    this.title = page.getByRole("heading", { level: 1 }).first();
    this.indicator = page.getByTestId("save-indicator");
    this.menu = page.getByRole("navigation", { name: messages.editorPanels });
    this.backToMenu = page.getByRole("button", { name: messages.editorBackToMenu });
    this.publish = page.getByRole("button", { name: messages.editorPublish, exact: true });
    this.unpublish = page.getByRole("button", { name: messages.editorUnpublish, exact: true });
    this.conflictDialog = page.getByRole("dialog", { name: messages.editorConflictTitle });
    this.header = page.getByLabel(messages.editorHeader, { exact: true });
    this.description = page.getByLabel(messages.editorDescription, { exact: true });
    this.instructions = page.getByLabel(messages.editorInstructions, { exact: true });
    this.addExample = page.getByRole("button", { name: messages.editorExampleAdd });
  }

  /** Opens the editor, on a panel by its URL name (?panel=texts) or on the menu. */
  async goto(panel?: string): Promise<void> {
    await this.page.goto(`/build/app/${this.appId}${panel ? `?panel=${panel}` : ""}`);
    await expect(this.indicator).toBeVisible();
  }

  /** A menu entry (a button that opens a panel). */
  menuEntry(label: string): Locator {
    return this.menu.getByRole("button", { name: label, exact: true });
  }

  /** Opens a panel from the menu; its heading gets the focus. */
  async openPanel(label: string, heading = label): Promise<void> {
    await this.menuEntry(label).click();
    await expect(this.page.getByRole("heading", { level: 2, name: heading, exact: true })).toBeVisible();
  }

  example(n: number): Locator {
    return this.page.getByLabel(fillTemplate(messages.editorExample, { n }), { exact: true });
  }

  /** Adds an example and types it. */
  async fillExample(n: number, text: string): Promise<void> {
    await this.addExample.click();
    await this.example(n).fill(text);
  }

  /** Waits until every edit is saved: the indicator shows the publish state again. */
  async expectSaved(published = false): Promise<void> {
    await expect(this.indicator).toHaveText(
      published ? messages.publishPublished : messages.publishNotPublished,
      { timeout: 15_000 },
    );
  }

  /** The banner of a failed save, with this text. */
  saveError(text: string): Locator {
    return this.page.getByRole("alert").filter({ hasText: text });
  }

  /** Publishes (pending edits are saved first) and waits for the state. */
  async publishApp(): Promise<void> {
    await this.publish.click();
    await expect(this.unpublish).toBeVisible();
    await this.expectSaved(true);
  }
}
