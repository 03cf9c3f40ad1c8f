import crypto from "node:crypto";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { localResetsAt } from "../../components/public-app/run-errors";
import { messages } from "../../lib/messages";
import { fillTemplate } from "../../lib/text";
import { AnalyticsPage } from "./pages/analytics-page";
import { AppLoginPage } from "./pages/app-login-page";
import { EditorPage } from "./pages/editor-page";
import { ToolRunPage } from "./pages/tool-run-page";
import { expectNoA11yViolations } from "./support/axe";
import { createApp, createBuilder, createTool, type SeedField, sql, uniqueEmail } from "./support/db";
import { codeIn, waitForMail } from "./support/mail";
import { RUN_CUT_WORD, RUN_SLOW_WORD } from "./support/model-responder";
import { logInAsBuilder, toast } from "./support/ui";

// Running a tool from its public page (Idle, Loading, Success or Error), against the local
// OpenAI-compatible model server that scripts/e2e.ts starts (tests/e2e/support/model-responder.ts:
// the demo model quotes the first excerpt of the app's data it is given; a main input holding
// RUN_SLOW_WORD is answered word by word, RUN_CUT_WORD loses its model connection mid-answer).

const INPUT_LABEL = "Where are you going?";
const LISBON = "Lisbon walking tours start at Praca do Comercio every morning at nine.";

/** A trip planner: the main input, a day count, interests to pick, the user's email. */
function tripContent(opts: { memorize?: boolean } = {}) {
  const fields: SeedField[] = [
    { name: "days", label: "How many days?", type: "text" },
    {
      name: "interests",
      label: "Interests",
      type: "multiselect",
      options: [{ label: "Food" }, { label: "Museums" }],
      memorize: opts.memorize,
    },
    { name: "email", label: "Email for your plan", type: "email", personal: true },
  ];
  return {
    inputLabel: INPUT_LABEL,
    examples: ["A long weekend in Lisbon"],
    welcomeMessage: "Tell us where you're headed.",
    gptPrompt: "You plan trips. Make a plan of [days] days for someone who loves [interests].",
    fields,
    ctaMessage: "Want a guide on the ground?",
    ctaButton: "Book a local guide",
    ctaLink: "https://example.com/guides",
  };
}

const tag = () => crypto.randomUUID().slice(0, 4);

/** The next 00:00 UTC: when a daily limit resets. */
function nextUtcMidnight(): string {
  const d = new Date();
  d.setUTCHours(24, 0, 0, 0);
  return d.toISOString();
}

test("a builder previews and publishes a tool; an end user signs in with a code, runs it on the app's data, and meets the daily limit", async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const builder = await createBuilder({ plan: "explorer" });
  const header = `Trips ${tag()}`;
  const { appId } = await createApp(builder, { header, content: tripContent({ memorize: true }) });
  await logInAsBuilder(page, builder);

  // The app's data: a text data source, through the same API as the Data sources panel.
  const added = await page.request.post(`/api/context/ingest/text?appId=${appId}`, {
    data: { context: LISBON },
  });
  expect(added.status()).toBe(200);
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/context/items?appId=${appId}`);
        return ((await res.json()) as { contextItems: { status: string }[] }).contextItems[0]?.status;
      },
      { timeout: 30_000 },
    )
    .toBe("synced");

  // The builder tries the draft on its public page (a preview: never limited, nothing remembered).
  const preview = new ToolRunPage(page, appId, INPUT_LABEL);
  await preview.goto();
  await expect(page.getByRole("status").filter({ hasText: messages.publicDraftBanner })).toBeVisible();
  await preview.mainInput.fill("A long weekend in Lisbon");
  await preview.run.click();
  await preview.expectStatus("success");
  await expect(preview.answer).toContainText(`From the app's data: "${LISBON}"`);
  // Under their own answer, the builder may open the data the run used: the one excerpt, as sent.
  const used = page.getByTestId("run-context-disclosure");
  await used.locator("summary").focus();
  await page.keyboard.press("Enter");
  await expect(used).toContainText(messages.runContextOneExcerpt);
  await used.getByTestId("run-context-entry").locator("summary").click();
  await expect(used.getByTestId("run-context-entry")).toContainText(LISBON);

  // Published from the editor, then sign-up on (it needs a custom domain) through the settings API.
  const editor = new EditorPage(page, appId);
  await editor.goto();
  await editor.publish.click();
  await expect(toast(page, messages.editorPublishedToast)).toBeVisible();
  const signup = await page.request.post(`/api/apps/${appId}/settings`, {
    data: { baseRevision: 0, appSettings: { customDomain: "trips.example.com", isSignupEnabled: true } },
  });
  expect(signup.status()).toBe(200);
  const { revision } = (await signup.json()) as { revision: number };

  // ---- an end user, on a phone, in Tokyo ----
  const phone = await browser.newContext({ viewport: { width: 375, height: 800 }, timezoneId: "Asia/Tokyo" });
  const user = await phone.newPage();
  const tool = new ToolRunPage(user, appId, INPUT_LABEL);
  await tool.goto();
  await expect(user.getByText(messages.publicRunSignInHint)).toBeVisible();
  await tool.mainInput.fill("A long weekend in Lisbon");
  await tool.run.click();
  await tool.expectStatus("error");
  await expect(tool.error).toContainText(messages.runSignInRequired);

  // Sign in from the error, with the code mailed to them, and come back to the tool.
  await tool.error.getByRole("link", { name: messages.publicSignIn }).click();
  await expect(user).toHaveURL(new RegExp(`/app/${appId}/login\\?redirectTo=`));
  const email = uniqueEmail("runner");
  const login = new AppLoginPage(user, appId);
  await login.requestCode(email);
  await login.enterCode(codeIn(await waitForMail(email, { subject: header })));
  await expect(user).toHaveURL(new RegExp(`/app/${appId}$`));
  await expect(user.getByText(`Signed in as ${email}`)).toBeVisible();

  // Their email is filled in from the session; they fill the rest and run.
  await expect(tool.field("Email for your plan")).toHaveValue(email);
  await expect(user.getByText(messages.publicRunSignInHint)).toHaveCount(0);
  await tool.mainInput.fill("A long weekend in Lisbon");
  await tool.field("How many days?").fill("3");
  await tool.pick("Food");
  await expect(user.getByText("Want a guide on the ground?")).toHaveCount(0);
  await tool.run.click();
  await tool.expectStatus("success");
  await expect(tool.answer).toContainText('You asked about: "A long weekend in Lisbon"');
  await expect(tool.answer).toContainText(`From the app's data: "${LISBON}"`);
  await expect(tool.resultsHeading).toBeFocused();
  // End users never get the run's data.
  await expect(user.getByTestId("run-context-disclosure")).toHaveCount(0);
  // The call to action comes with the answer.
  await expect(user.getByText("Want a guide on the ground?")).toBeVisible();
  await expect(user.getByRole("link", { name: "Book a local guide" })).toHaveAttribute(
    "href",
    "https://example.com/guides",
  );
  await expectNoA11yViolations(user, "a tool's answer on a phone");

  // Start over: back to the welcome message, the form kept.
  await tool.startOver.click();
  await tool.expectStatus("idle");
  await expect(tool.results).toContainText("Tell us where you're headed.");
  await expect(tool.field("How many days?")).toHaveValue("3");

  // Next visit: the app remembers the interests (a memorize field) until asked to forget them.
  await user.reload();
  await expect(tool.option("Food")).toBeChecked();
  await expect(user.getByText(messages.publicAnswersRemembered)).toBeVisible();
  await tool.forgetAnswers.click();
  await expect(toast(user, messages.publicAnswersForgotten)).toBeVisible();
  await expect(tool.option("Food")).not.toBeChecked();
  const [{ n }] = await sql<{ n: number }>("SELECT count(*)::int AS n FROM user_memories WHERE app_id = $1", [
    appId,
  ]);
  expect(n).toBe(0);

  // One run a day: this user has had theirs. The reset time is said in their own time zone.
  const limited = await page.request.post(`/api/apps/${appId}/settings`, {
    data: { baseRevision: revision, appSettings: { dailyUserLimit: 1 } },
  });
  expect(limited.status()).toBe(200);
  await tool.mainInput.fill("A long weekend in Lisbon");
  await tool.run.click();
  await tool.expectStatus("error");
  const resetsAt = localResetsAt(nextUtcMidnight(), "Asia/Tokyo");
  expect(resetsAt).toMatch(/ at 09:00$/);
  await expect(tool.error).toHaveText(fillTemplate(messages.runDailyLimit, { resetsAt: resetsAt! }));
  await expect(tool.resultsHeading).toBeFocused();
  await phone.close();

  // The builder finds that run in the app's analytics: one run by one end user who signed up
  // today, with what they asked and what the model answered (the builder's draft preview and the
  // refused attempts are not counted).
  const analytics = new AnalyticsPage(page);
  await analytics.goto(appId);
  await expect(analytics.heading).toBeVisible();
  await expect(analytics.tile("runs")).toHaveText("1");
  await expect(analytics.tile("users")).toHaveText("1");
  await expect(analytics.tile("signups")).toHaveText("1");
  await expect(analytics.runs).toHaveCount(1);
  const run = analytics.runs.first();
  await expect(run).toContainText(email);
  await run.getByRole("button").click();
  await expect(run).toContainText("A long weekend in Lisbon");
  await expect(run).toContainText(`From the app's data: "${LISBON}"`);
  await expect(run.getByTestId("run-context")).toContainText(messages.runContextOneExcerpt);
});

/** A published trip planner anybody may run (no sign-up); its results editable when asked. */
async function openTool(page: Page, opts: { style?: Record<string, unknown>; editable?: boolean } = {}) {
  const builder = await createBuilder();
  const { appId } = await createApp(builder, {
    header: `Open trips ${tag()}`,
    status: "active",
    content: tripContent(),
    settings: { userCanEditResults: opts.editable ?? false },
    style: opts.style,
  });
  const tool = new ToolRunPage(page, appId, INPUT_LABEL);
  await tool.goto();
  return { appId, tool };
}

test("a field the server refuses is marked and focused; a run is cancelled mid-answer, cut off, reset; results are editable", async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const { appId, tool } = await openTool(page, { editable: true });

  // The builder made the day count required after this page was loaded: the server says so.
  await sql(`UPDATE apps SET content = jsonb_set(content, '{fields,0,required}', 'true') WHERE id = $1`, [
    appId,
  ]);
  const days = tool.field("How many days?");
  await tool.mainInput.fill("A long weekend in Lisbon");
  await tool.run.click();
  const required = fillTemplate(messages.runFieldRequired, { label: "How many days?" });
  await expect(days).toHaveAttribute("aria-invalid", "true");
  await expect(days).toBeFocused();
  await expect(page.getByRole("alert").filter({ hasText: required })).toBeVisible();
  await expect(days).toHaveAccessibleDescription(required);
  await days.fill("3");
  await expect(days).not.toHaveAttribute("aria-invalid", "true");

  // Reloaded, the form knows the field is required and says so before sending anything.
  await page.reload();
  let runs = 0;
  page.on("request", (r) => {
    if (r.url().endsWith(`/api/apps/${appId}/run`)) runs++;
  });
  await tool.mainInput.fill("A long weekend in Lisbon");
  await tool.run.click();
  await expect(days).toHaveAttribute("aria-invalid", "true");
  await expect(days).toBeFocused();
  expect(runs).toBe(0);
  await days.fill("3");

  // Cancelled while it streams: the words so far stay, with what happened.
  await tool.mainInput.fill(`A long weekend in Lisbon ${RUN_SLOW_WORD}`);
  await tool.run.click();
  await tool.expectStatus("loading");
  await expect(tool.cancel).toBeFocused();
  await expect(tool.running).toBeDisabled();
  await expect(tool.answer).toContainText("Here is a short");
  await tool.cancel.click();
  await tool.expectStatus("error");
  await expect(tool.error).toHaveText(messages.runCancelled);
  await expect(tool.answer).toContainText("Here is a short");
  await expect(tool.answer).not.toContainText("for real answers");
  await tool.startOver.click();
  await tool.expectStatus("idle");
  await expect(tool.results).toContainText(messages.publicResultsEmpty);
  await expect(tool.answer).toHaveText("");

  // The model's connection drops after a few words: the server's error part, the text kept.
  await tool.mainInput.fill(`Lisbon ${RUN_CUT_WORD}`);
  await tool.run.click();
  await tool.expectStatus("error");
  await expect(tool.error).toHaveText(messages.runInterrupted);
  await expect(tool.answer).toContainText("Here is");

  // userCanEditResults: the answer is a textarea; edits are copied, never saved.
  await tool.mainInput.fill("A long weekend in Lisbon");
  await tool.run.click();
  await tool.expectStatus("success");
  await expect(tool.editableResult).toHaveValue(/^Here is a short answer/);
  await tool.editableResult.fill("Day 1: Alfama. Day 2: Belem.");
  await tool.copy.click();
  await expect(toast(page, messages.publicResultCopied)).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("Day 1: Alfama. Day 2: Belem.");
  const [run] = await sql<{ output: string }>(
    "SELECT output FROM tool_runs WHERE app_id = $1 AND status = 'success' ORDER BY created_at DESC LIMIT 1",
    [appId],
  );
  expect(run?.output).toMatch(/^Here is a short answer/);
});

const DARK_STYLE = {
  styleName: "dark",
  background: "#111827",
  headerTextColor: "#FFFFFF",
  subheaderTextColor: "#D1D5DB",
  buttonTextColor: "#111827",
  buttonBackgroundColor: "#FBBF24",
};

async function statesAt(
  browser: Browser,
  width: number,
  scheme: "light" | "dark",
  shot: (p: Page, name: string) => Promise<void>,
) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
  const page = await context.newPage();
  // The public page follows the builder's colours, not the visitor's theme: a dark-branded app in dark.
  const { tool } = await openTool(page, { style: scheme === "dark" ? DARK_STYLE : undefined });
  const where = `${width}px, ${scheme}`;

  await shot(page, `idle-${width}-${scheme}`);
  await expectNoA11yViolations(page, `a tool, idle (${where})`);

  await tool.mainInput.fill(`A long weekend in Lisbon ${RUN_SLOW_WORD}`);
  await tool.field("How many days?").fill("3");
  await tool.pick("Museums");
  await tool.run.click();
  await expect(tool.answer).toContainText("You asked about");
  await shot(page, `loading-${width}-${scheme}`);
  await expectNoA11yViolations(page, `a tool, answering (${where})`);

  await tool.expectStatus("success", 30_000);
  await shot(page, `success-${width}-${scheme}`);
  await expectNoA11yViolations(page, `a tool's answer (${where})`);
  await context.close();
}

test("idle, loading and success at 375 and 1280 px, light and dark: 0 axe violations", async ({
  browser,
}, info) => {
  test.setTimeout(240_000);
  const shot = async (page: Page, name: string) => {
    const path = info.outputPath(`run-${name}.png`);
    await page.screenshot({ path, fullPage: true });
    await info.attach(name, { path, contentType: "image/png" });
  };
  for (const width of [375, 1280]) {
    for (const scheme of ["light", "dark"] as const) await statesAt(browser, width, scheme, shot);
  }
});

test("a generated app's tool runs on both of its addresses; its builder runs a draft tool", async ({
  page,
  browser,
}) => {
  const builder = await createBuilder();
  const { appId } = await createApp(builder, {
    type: "generated",
    status: "active",
    header: `Kitchen ${tag()}`,
  });
  const path = `menu-${tag()}`;
  const live = await createTool(appId, {
    title: "Menu maker",
    path,
    status: "active",
    content: { inputLabel: "What's in the fridge?", gptPrompt: "Suggest a menu." },
  });
  const draft = await createTool(appId, {
    title: "Wine pairing",
    path: `${path}-draft`,
    content: { inputLabel: "What's for dinner?", gptPrompt: "Pair a wine." },
  });

  const tool = new ToolRunPage(page, appId, "What's in the fridge?");
  for (const address of [`/app/${appId}/tool/${path}`, `/tool/${path}`]) {
    await tool.goto(address);
    await tool.mainInput.fill("Eggs and leeks");
    await tool.run.click();
    await tool.expectStatus("success");
    await expect(tool.answer).toContainText('You asked about: "Eggs and leeks"');
  }
  // A draft tool is nobody's but its builder's.
  expect((await page.goto(`/app/${appId}/tool/${draft.path}`))?.status()).toBe(404);

  const builderContext = await browser.newContext();
  const own = await builderContext.newPage();
  await logInAsBuilder(own, builder);
  const preview = new ToolRunPage(own, appId, "What's for dinner?");
  await preview.goto(`/app/${appId}/tool/${draft.path}`);
  await expect(own.getByRole("status").filter({ hasText: messages.publicDraftToolBanner })).toBeVisible();
  await preview.mainInput.fill("Leek tart");
  await preview.run.click();
  await preview.expectStatus("success");
  await expect(preview.answer).toContainText('You asked about: "Leek tart"');
  await builderContext.close();

  const runs = await sql<{ kind: string; tool_id: string }>(
    "SELECT kind, tool_id FROM tool_runs WHERE app_id = $1 ORDER BY created_at",
    [appId],
  );
  expect(runs).toEqual([
    { kind: "visitor", tool_id: live.toolId },
    { kind: "visitor", tool_id: live.toolId },
    { kind: "preview", tool_id: draft.toolId },
  ]);
});
