import type { Locator, Page } from "@playwright/test";
import { messages } from "../../../lib/messages";

/** The builder shell's navigation sidebar (desktop): expanded, or collapsed to icons. */
export class BuilderSidebar {
  /** The element carrying data-state="expanded" | "collapsed". */
  readonly root: Locator;
  readonly toggle: Locator;
  readonly nav: Locator;

  constructor(readonly page: Page) {
    this.root = page.locator('[data-slot="sidebar"]');
    this.toggle = page.getByRole("button", { name: messages.toggleSidebar });
    this.nav = page.getByRole("navigation", { name: messages.mainNavigation });
  }

  /** Ctrl+B (Cmd+B on a Mac). */
  async pressShortcut(modifier: "Control" | "Meta" = "Control"): Promise<void> {
    await this.page.keyboard.press(`${modifier}+b`);
  }
}
