import crypto from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { formatDayLong } from "../../components/analytics/format";
import { formatCompactNumber, formatDollars } from "../../lib/format/number";
import { messages } from "../../lib/messages";
import { fillTemplate } from "../../lib/text";
import { AnalyticsPage } from "./pages/analytics-page";
import { HomePage } from "./pages/home-page";
import { expectNoA11yViolations } from "./support/axe";
import { createApp, createBuilder, createEndUser, createTool, type SeededUser, sql } from "./support/db";
import { logInAsBuilder, toast } from "./support/ui";

// A builder reads the analytics of a published app: runs recorded by the product's tool runs
// (inserted here as the run route records them; the counters follow by trigger), summary numbers
// in the spec's compact format, the four charts with their tables, statuses, top tools, recent
// runs opened to their inputs and outputs, paged; another range; a draft app's message; another
// builder's 404; axe on each, light and dark, wide and narrow.

const tag = () => crypto.randomUUID().slice(0, 6);
const DAY_MS = 86_400_000;
const utcDay = (d: Date) => d.toISOString().slice(0, 10);

type Run = {
  toolId: string;
  kind: "end_user" | "visitor";
  userId: string | null;
  subject: string;
  status: "success" | "error" | "cancelled" | "aborted";
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  isDemo: boolean;
  input: string;
  output: string;
  createdAt: Date;
  /** What its model was grounded in (tool_runs.context); none recorded when absent. */
  context?: unknown;
};

/** Two excerpts of a price list, as a run records them (the builder sees no scores). */
const EXCERPTS = [
  {
    itemId: crypto.randomUUID(),
    itemName: "prices.txt",
    position: 2,
    text: "A bowl of soup costs 4 EUR.",
    score: 3.25,
  },
  {
    itemId: crypto.randomUUID(),
    itemName: "menu.pdf",
    position: 0,
    text: "Soups of the day: leek, tomato.",
    score: 1.5,
  },
];

async function insertRuns(appId: string, runs: Run[]) {
  for (const r of runs) {
    await sql(
      `INSERT INTO tool_runs (app_id, tool_id, kind, user_id, subject, inputs, output, model, prompt_tokens,
         completion_tokens, cost_usd, cost_known, credits, status, is_demo, duration_ms, created_at, finished_at, context)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'gpt-4o-mini', $8, $9, $10, true, 1, $11, $12, 1500, $13, $13, $14)`,
      [
        appId,
        r.toolId,
        r.kind,
        r.userId,
        r.subject,
        JSON.stringify({ input: r.input, servings: "4" }),
        r.output,
        r.promptTokens,
        r.completionTokens,
        r.costUsd,
        r.status,
        r.isDemo,
        r.createdAt,
        r.context === undefined ? null : JSON.stringify(r.context),
      ],
    );
  }
}

/**
 * A published generated app of two tools, three end users who signed up today, and 25 runs: 24 in
 * the last hours (tools, visitors and users, statuses, demo runs mixed) and one 10 days ago.
 */
async function analyticsWorld() {
  const builder = await createBuilder({ plan: "explorer" });
  const app = await createApp(builder, { type: "generated", status: "active", header: `Stats ${tag()}` });
  const soup = await createTool(app.appId, { title: "Soup maker", path: `soup-${tag()}`, status: "active" });
  const bread = await createTool(app.appId, {
    title: "Bread baker",
    path: `bread-${tag()}`,
    status: "active",
  });
  const users: SeededUser[] = [];
  for (let i = 0; i < 3; i++) users.push(await createEndUser(app.appId));
  const now = Date.now();
  const runs: Run[] = [];
  for (let i = 1; i <= 24; i++) {
    const user = i % 3 === 0 ? users[(i / 3) % 3]! : null;
    runs.push({
      toolId: i % 3 === 1 ? bread.toolId : soup.toolId,
      kind: user ? "end_user" : "visitor",
      userId: user?.id ?? null,
      subject: user ? `user:${user.id}` : `visitor:e2e-${i % 4}`,
      status: i % 8 === 0 ? "error" : i % 12 === 5 ? "cancelled" : i === 7 ? "aborted" : "success",
      promptTokens: 100 + i * 10,
      completionTokens: 50,
      costUsd: 0.001 * i,
      isDemo: i % 5 === 0,
      input: `Question number ${i}`,
      output: `Answer number ${i}`,
      createdAt: new Date(now - i * 15 * 60_000),
      context: i === 1 ? { kind: "chunks", excerpts: EXCERPTS } : undefined,
    });
  }
  const old: Run = {
    ...runs[0]!,
    kind: "visitor",
    userId: null,
    subject: "visitor:e2e-old",
    input: "An old question",
    output: "An old answer",
    isDemo: false,
    status: "success",
    createdAt: new Date(now - 10 * DAY_MS),
  };
  await insertRuns(app.appId, [...runs, old]);
  return { builder, app, runs, old, users };
}

const sum = (runs: Run[], f: (r: Run) => number) => runs.reduce((s, r) => s + f(r), 0);

async function expectTiles(analytics: AnalyticsPage, runs: Run[], users: number, signups: number) {
  await expect(analytics.tile("runs")).toHaveText(formatCompactNumber(runs.length));
  await expect(analytics.tile("users")).toHaveText(formatCompactNumber(users));
  await expect(analytics.tile("signups")).toHaveText(formatCompactNumber(signups));
  await expect(analytics.tile("tokens")).toHaveText(
    formatCompactNumber(sum(runs, (r) => r.promptTokens + r.completionTokens)),
  );
  await expect(analytics.tile("cost")).toHaveText(formatDollars(sum(runs, (r) => r.costUsd)));
}

async function inDarkAt(page: Page, width: number) {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width, height: 900 });
}

test.describe("analytics", () => {
  test("a builder opens an app's analytics from /home and reads its figures, charts and runs", async ({
    page,
  }) => {
    // Many steps and three axe scans: more than the default minute on a busy machine.
    test.setTimeout(120_000);
    const { builder, app, runs, old } = await analyticsWorld();
    await page.setViewportSize({ width: 1280, height: 900 });
    await logInAsBuilder(page, builder);

    // From the app's card on /home.
    const home = new HomePage(page);
    await home
      .appCard(app.header)
      .getByRole("button", { name: fillTemplate(messages.appActions, { name: app.header }) })
      .click();
    await page.getByRole("menuitem", { name: messages.appAnalytics }).click();
    await expect(page).toHaveURL(new RegExp(`/analytics/app/${app.appId}$`));
    const analytics = new AnalyticsPage(page);
    await expect(analytics.heading).toBeVisible();
    await expect(page).toHaveTitle(
      new RegExp(fillTemplate(messages.analyticsPageTitle, { name: app.header })),
    );

    // The last 30 days, by default: every run, 3 end users + 4 visitors + the old visitor.
    const all = [...runs, old];
    await expect(analytics.preset(30)).toHaveAttribute("aria-pressed", "true");
    const today = utcDay(new Date());
    await expect(analytics.rangeText).toHaveText(
      fillTemplate(messages.analyticsRangeShown, {
        from: formatDayLong(utcDay(new Date(Date.now() - 29 * DAY_MS))),
        to: formatDayLong(today),
      }),
    );
    await expectTiles(analytics, all, 8, 3);
    const demo = runs.filter((r) => r.isDemo).length;
    await expect(page.getByTestId("analytics-demo-note")).toHaveText(
      fillTemplate(messages.analyticsDemoNote, { n: demo }),
    );

    // The four charts are drawn, each with its summary and its table.
    for (const name of ["runs", "users", "signups", "tokens"] as const) {
      const chart = analytics.chart(name);
      await expect(chart.locator("svg.recharts-surface")).toBeVisible();
      await expect(chart.locator("figcaption p")).not.toHaveText(messages.analyticsChartEmpty);
    }
    await expect(analytics.chart("runs").locator(".recharts-bar-rectangle").first()).toBeVisible();
    await expect(analytics.chart("runs").locator("figcaption p")).toContainText(
      fillTemplate(messages.analyticsChartSummary, { total: String(all.length), day: "", max: "" }).split(
        ";",
      )[0]!,
    );
    const signups = analytics.chart("signups");
    await signups.getByText(messages.analyticsShowTable).click();
    await expect(
      signups.getByRole("row", { name: new RegExp(`^${formatDayLong(today)}\\s+3$`) }),
    ).toBeVisible();

    // Statuses and top tools.
    const statuses = page.getByTestId("analytics-statuses");
    const errors = runs.filter((r) => r.status === "error").length;
    await expect(
      statuses.getByRole("listitem").filter({ hasText: messages.analyticsStatusError }),
    ).toContainText(`${errors} · ${Math.round((errors / all.length) * 100)}%`);
    const tools = page.getByTestId("analytics-tools");
    await expect(tools.getByRole("row").nth(1)).toContainText("Soup maker");
    await expect(tools.getByRole("row").nth(2)).toContainText("Bread baker");

    // Recent runs: a page of 20, then the rest; one opened to its inputs and output.
    await expect(analytics.runs).toHaveCount(20);
    const first = analytics.runs.first();
    await expect(first).toContainText("Bread baker");
    await first.getByRole("button").click();
    await expect(first.getByRole("button")).toHaveAttribute("aria-expanded", "true");
    await expect(first).toContainText("Question number 1");
    await expect(first).toContainText("Answer number 1");
    // The data its model was given: each excerpt closed, named by its source and part, opened from
    // the keyboard; the builder (no admin) gets no scores.
    const context = first.getByTestId("run-context");
    await expect(context).toContainText(fillTemplate(messages.runContextExcerpts, { n: 2 }));
    const excerpts = context.getByTestId("run-context-entry");
    await expect(excerpts).toHaveCount(2);
    await expect(excerpts.nth(0)).toContainText(
      fillTemplate(messages.runContextExcerpt, { source: "prices.txt", position: 3 }),
    );
    await expect(excerpts.nth(1)).toContainText(
      fillTemplate(messages.runContextExcerpt, { source: "menu.pdf", position: 1 }),
    );
    await expect(context.getByText(EXCERPTS[0]!.text)).toBeHidden();
    await excerpts.nth(0).locator("summary").focus();
    await page.keyboard.press("Enter");
    await expect(context.getByText(EXCERPTS[0]!.text)).toBeVisible();
    await expect(context).not.toContainText(messages.runContextScore);
    await expectNoA11yViolations(page, "analytics, 1280 px, light, a table and a run open");
    // A run that kept no data says why.
    const second = analytics.runs.nth(1);
    await second.getByRole("button").first().click();
    await expect(second.getByTestId("run-context-empty")).toHaveText(messages.runContextNotRecorded);
    await analytics.loadMore.click();
    await expect(analytics.runs).toHaveCount(all.length);
    await expect(analytics.loadMore).toHaveCount(0);
    await expect(analytics.runs.last()).toContainText("Bread baker");

    // The last 7 days: the old run is out; the address keeps the choice.
    await analytics.preset(7).click();
    await expect(page).toHaveURL(/\?days=7$/);
    await expect(analytics.preset(7)).toHaveAttribute("aria-pressed", "true");
    await expectTiles(analytics, runs, 7, 3);
    await page.reload();
    await expect(analytics.preset(7)).toHaveAttribute("aria-pressed", "true");
    await expectTiles(analytics, runs, 7, 3);

    // Two days of the builder's choice around the old run: it alone.
    const oldDay = utcDay(old.createdAt);
    await analytics.customRange(utcDay(new Date(old.createdAt.getTime() - DAY_MS)), oldDay);
    await expect(page).toHaveURL(new RegExp(`from=.*&to=${oldDay}$`));
    await expectTiles(analytics, [old], 1, 0);
    await expect(analytics.runs).toHaveCount(1);
    await expect(analytics.runs.first()).toContainText(messages.analyticsVisitor);

    // Narrow and dark.
    await analytics.preset(30).click();
    await expectTiles(analytics, all, 8, 3);
    await inDarkAt(page, 375);
    const scroll = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(scroll, "the page scrolls sideways at 375 px").toBeLessThanOrEqual(0);
    await expect(analytics.chart("tokens").locator("svg.recharts-surface")).toBeVisible();
    // The first run's excerpts, opened, fit the phone's width too.
    const phoneRun = analytics.runs.first();
    await phoneRun.getByRole("button").first().click();
    await phoneRun.getByTestId("run-context-entry").first().locator("summary").click();
    await expect(phoneRun.getByText(EXCERPTS[0]!.text)).toBeVisible();
    const scrollOpen = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(scrollOpen, "the page scrolls sideways at 375 px with a run's excerpts open").toBeLessThanOrEqual(
      0,
    );
    await expectNoA11yViolations(page, "analytics, 375 px, dark");
  });

  test("a published app without runs says to share it; a draft says to publish it; others see no app", async ({
    page,
    browser,
  }) => {
    const builder = await createBuilder();
    const quiet = await createApp(builder, { status: "active", header: `Quiet ${tag()}` });
    const draft = await createApp(builder, { status: "draft", header: `Draft ${tag()}` });
    await page.setViewportSize({ width: 1280, height: 900 });
    await logInAsBuilder(page, builder);
    const analytics = new AnalyticsPage(page);

    await analytics.goto(quiet.appId);
    await expect(analytics.empty).toBeVisible();
    await expect(page.getByText(messages.analyticsEmptyText)).toBeVisible();
    await expect(analytics.tile("runs")).toHaveText("0");
    await expect(analytics.tile("cost")).toHaveText("$0.00");
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: messages.analyticsCopyLink }).click();
    await expect(toast(page, messages.analyticsLinkCopied)).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(
      new RegExp(`/app/${quiet.appId}$`),
    );
    await expectNoA11yViolations(page, "analytics, no runs");

    await analytics.goto(draft.appId);
    await expect(analytics.notPublished).toBeVisible();
    await expect(analytics.content).toHaveCount(0);
    const toEditor = page.getByRole("link", { name: messages.analyticsOpenEditor });
    await inDarkAt(page, 375);
    await expectNoA11yViolations(page, "analytics of a draft, 375 px, dark");
    await toEditor.click();
    await expect(page).toHaveURL(new RegExp(`/build/app/${draft.appId}`));

    // Another builder: the same 404 as for an app that does not exist.
    const other = await createBuilder();
    const context = await browser.newContext();
    const otherPage = await context.newPage();
    await logInAsBuilder(otherPage, other);
    const res = await otherPage.goto(`/analytics/app/${quiet.appId}`);
    expect(res?.status()).toBe(404);
    await expect(otherPage.getByText(messages.notFoundTitle)).toBeVisible();
    await context.close();
  });
});
