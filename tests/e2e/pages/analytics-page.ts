import type { Locator, Page } from "@playwright/test";
import { messages } from "../../../lib/messages";
import { fillTemplate } from "../../../lib/text";

/** /analytics/app/{appId}: an app's analytics for its builder. */
export class AnalyticsPage {
  readonly heading: Locator;
  readonly content: Locator;
  readonly rangeText: Locator;
  readonly notPublished: Locator;
  readonly empty: Locator;
  readonly runs: Locator;
  readonly loadMore: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: messages.analyticsTitle });
    this.content = page.getByTestId("analytics-content");
    this.rangeText = page.getByTestId("analytics-range");
    this.notPublished = page.getByRole("heading", { name: messages.analyticsNotPublished });
    this.empty = page.getByRole("heading", { name: messages.analyticsEmptyTitle });
    this.runs = page.getByTestId("analytics-run");
    this.loadMore = page.getByRole("button", { name: messages.analyticsLoadMore });
  }

  async goto(appId: string, query = ""): Promise<void> {
    await this.page.goto(`/analytics/app/${appId}${query}`);
  }

  /** A summary number: runs, users, signups, tokens, cost. */
  tile(name: "runs" | "users" | "signups" | "tokens" | "cost"): Locator {
    return this.page.getByTestId(`analytics-${name}`);
  }

  chart(name: "runs" | "users" | "signups" | "tokens"): Locator {
    return this.page.getByTestId(`chart-${name}`);
  }

  preset(days: number): Locator {
    return this.page.getByRole("button", { name: fillTemplate(messages.analyticsLastDays, { n: days }) });
  }

  async customRange(from: string, to: string): Promise<void> {
    await this.page.getByRole("button", { name: messages.analyticsCustom }).click();
    await this.page.getByLabel(messages.analyticsFrom, { exact: true }).fill(from);
    await this.page.getByLabel(messages.analyticsTo, { exact: true }).fill(to);
    await this.page.getByRole("button", { name: messages.analyticsApply }).click();
  }
}
