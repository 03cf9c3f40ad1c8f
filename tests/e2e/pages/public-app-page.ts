import type { Locator, Page } from "@playwright/test";
import { messages } from "../../../lib/messages";
import { fillTemplate } from "../../../lib/text";

/** /app/{appId} (and its tool pages): the published app as visitors see it. */
export class PublicAppPage {
  /** The branded page (its background colour and style name are on this element). */
  readonly root: Locator;
  readonly heading: Locator;
  readonly examples: Locator;
  readonly draftBanner: Locator;
  readonly notFound: Locator;

  constructor(
    readonly page: Page,
    readonly appId: string,
  ) {
    this.root = page.locator(`[data-public-app="${appId}"]`);
    this.heading = page.getByRole("heading", { level: 1 });
    this.examples = page.getByRole("list", { name: messages.publicExamples });
    this.draftBanner = page.getByRole("status").filter({ hasText: messages.publicDraftBanner });
    this.notFound = page.getByRole("heading", { name: messages.notFoundTitle });
  }

  async goto(): Promise<void> {
    await this.page.goto(`/app/${this.appId}`);
  }

  async gotoTool(path: string): Promise<void> {
    await this.page.goto(`/app/${this.appId}/tool/${encodeURIComponent(path)}`);
  }

  example(text: string): Locator {
    return this.examples.getByRole("button", { name: text, exact: true });
  }

  logo(appName: string): Locator {
    return this.page.getByRole("img", { name: fillTemplate(messages.publicLogoAlt, { name: appName }) });
  }

  toolNotFound(path: string): Locator {
    return this.page.getByRole("heading", { name: fillTemplate(messages.toolPathNotFound, { path }) });
  }
}
