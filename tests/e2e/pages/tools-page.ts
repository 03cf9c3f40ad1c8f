import { expect, type Locator, type Page } from "@playwright/test";
import { messages } from "../../../lib/messages";
import { fillTemplate } from "../../../lib/text";

/** /build/app/{appId}/tools: a generated app's tools, with the Add tool dialog. */
export class ToolsPage {
  readonly heading: Locator;
  readonly addTool: Locator;
  readonly dialog: Locator;
  readonly title: Locator;
  readonly path: Locator;
  readonly submit: Locator;

  constructor(
    readonly page: Page,
    readonly appId: string,
  ) {
    this.heading = page.getByRole("heading", { level: 1, name: messages.toolsTitle });
    this.addTool = page.getByRole("main").getByRole("button", { name: messages.addTool });
    this.dialog = page.getByRole("dialog", { name: messages.addToolTitle });
    this.title = this.dialog.getByLabel(messages.toolTitle, { exact: true });
    this.path = this.dialog.getByLabel(messages.toolPath, { exact: true });
    this.submit = this.dialog.getByRole("button", { name: messages.addTool });
  }

  async goto(): Promise<void> {
    await this.page.goto(`/build/app/${this.appId}/tools`);
    await expect(this.heading).toBeVisible();
  }

  /** A tool's row, by its name (its title, or 'Untitled tool'). */
  row(name: string): Locator {
    return this.page
      .getByRole("listitem")
      .filter({ has: this.page.getByRole("link", { name, exact: true }) });
  }

  /** Runs an action of a tool's menu (Activate, Deactivate, Delete tool...). */
  async action(name: string, action: string): Promise<void> {
    await this.row(name)
      .getByRole("button", { name: fillTemplate(messages.toolActions, { name }) })
      .click();
    await this.page.getByRole("menuitem", { name: action }).click();
  }

  /** Adds a tool; resolves with its id once its editor is open. */
  async add(title: string, path?: string): Promise<string> {
    await this.addTool.click();
    await this.title.fill(title);
    if (path !== undefined) await this.path.fill(path);
    await this.submit.click();
    await expect(this.page).toHaveURL(new RegExp(`/build/app/${this.appId}/tool/[0-9a-f-]{36}$`));
    return this.page.url().split("/").at(-1)!;
  }
}
