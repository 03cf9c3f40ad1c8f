import crypto from "node:crypto";
import { type APIRequestContext, type Browser, expect, test } from "@playwright/test";
import { LoginPage } from "./pages/login-page";
import { createApp, createBuilder, createEndUser, createTool, type SeedField } from "./support/db";
import { logInAsBuilder } from "./support/ui";

// Public pages carry only what they show. The builder's recipe (instructions, blocks, each
// field's instructions, model and template settings...) is read by runs on the server and must
// never reach the browser: not in the HTML, not in the RSC payload a client navigation fetches.
// Every hidden setting holds a marker; the pages are fetched as the production server serves
// them, for a stranger, an end user signed in to the app, an admin viewing drafts (a draft viewer
// who is not the builder) and the builder; no marker may appear, while the page's visible texts do.

test.use({ viewport: { width: 1280, height: 900 } });

// One prefix for every marker of this run, so a single search finds any of them.
const SECRET = `hidden${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
const secret = (what: string) => `${SECRET}-${what}`;

/** A form with every kind of hidden field setting, and labels and options that the page shows. */
const fields = (where: string): SeedField[] => [
  {
    name: "topic",
    label: `Topic of ${where}`,
    type: "text",
    required: true,
    instructions: secret(`${where}-field-instructions`),
    filterCondition: "include",
  },
  {
    name: "mood",
    label: "Mood",
    type: "select",
    options: [{ label: "Calm" }, { label: "Bold" }],
    instructions: secret(`${where}-select-instructions`),
    personal: true,
  },
];

/** The content keys a page never shows (the app's; a tool's content has the ones of its kind). */
const hiddenContent = (where: string) => ({
  description: `Visible description of ${where}`,
  gptPrompt: secret(`${where}-gptPrompt`),
  blocks: [{ type: "instructions", text: secret(`${where}-block`) }],
  background: secret(`${where}-background`),
  features: [secret(`${where}-feature`)],
  chatSettings: { persona: secret(`${where}-chat-setting`) },
  fields: fields(where),
});

/** Settings the page does not show: the model, the template listing. */
const hiddenSettings = (where: string) => ({
  aiModel: secret(`${where}-model`),
  templateDescription: secret(`${where}-template-description`),
  // Categories are short (40 characters at most).
  templateCategory: secret(`${where}-tc`),
  templateCategories: [secret(`${where}-tcs`)],
  isSignupEnabled: true,
});

const hiddenTool = (where: string) => ({
  description: `Visible description of ${where}`,
  gptPrompt: secret(`${where}-gptPrompt`),
  blocks: [{ type: "instructions", text: secret(`${where}-block`) }],
  background: secret(`${where}-background`),
  fields: fields(where),
});

type PageCheck = { url: string; shows: string };

/** The markers found in a response, by name (empty when none). */
const leaks = (text: string) => [...new Set(text.match(new RegExp(`${SECRET}-[A-Za-z-]+`, "g")) ?? [])];

/** The page as HTML and as the RSC payload of a client navigation: served, visible text there, no marker. */
async function expectNoSecrets(request: APIRequestContext, { url, shows }: PageCheck, who: string) {
  const html = await request.get(url);
  expect(html.status(), `${who}: ${url}`).toBe(200);
  const htmlText = await html.text();
  expect(htmlText, `${who}: ${url} draws the page`).toContain(shows);
  expect(leaks(htmlText), `${who}: ${url} HTML holds hidden settings`).toEqual([]);
  expect(htmlText).not.toContain(SECRET);

  const rsc = await request.get(url, { headers: { RSC: "1" } });
  expect(rsc.status(), `${who}: ${url} (RSC)`).toBe(200);
  expect(rsc.headers()["content-type"]).toContain("text/x-component");
  const rscText = await rsc.text();
  expect(rscText, `${who}: ${url} RSC payload draws the page`).toContain(shows);
  expect(leaks(rscText), `${who}: ${url} RSC payload holds hidden settings`).toEqual([]);
  expect(rscText).not.toContain(SECRET);
}

/** A browser context signed in as an end user of this app (its password form). */
async function endUserContext(browser: Browser, appId: string) {
  const user = await createEndUser(appId);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`/app/${appId}/login?method=password`);
  await new LoginPage(page).logIn(user.email, user.password);
  await expect(page).toHaveURL(new RegExp(`/app/${appId}$`));
  await expect(page.getByText(`Signed in as ${user.email}`)).toBeVisible();
  return context;
}

test("no hidden setting of an app or a tool reaches its public pages, whoever looks", async ({
  browser,
  playwright,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const owner = await createBuilder();
  const suffix = crypto.randomUUID().slice(0, 8);

  // A published single-tool app, and a published generated app with an active and a draft tool.
  const single = await createApp(owner, {
    type: "tool",
    status: "active",
    header: `Single ${suffix}`,
    content: hiddenContent("single"),
    settings: hiddenSettings("single"),
  });
  const hub = await createApp(owner, {
    type: "generated",
    status: "active",
    header: `Hub ${suffix}`,
    content: hiddenContent("hub"),
    settings: hiddenSettings("hub"),
  });
  const live = await createTool(hub.appId, {
    title: `Live tool ${suffix}`,
    path: `live-${suffix}`,
    status: "active",
    content: hiddenTool("live-tool"),
  });
  const draftTool = await createTool(hub.appId, {
    title: `Draft tool ${suffix}`,
    path: `draft-${suffix}`,
    content: hiddenTool("draft-tool"),
  });
  // Unpublished apps, seen only by their builder and admins.
  const draftSingle = await createApp(owner, {
    type: "tool",
    header: `Draft single ${suffix}`,
    content: hiddenContent("draft-single"),
    settings: hiddenSettings("draft-single"),
  });
  const draftHub = await createApp(owner, {
    type: "generated",
    header: `Draft hub ${suffix}`,
    content: hiddenContent("draft-hub"),
    settings: hiddenSettings("draft-hub"),
  });
  const draftHubTool = await createTool(draftHub.appId, {
    title: `Tool of a draft ${suffix}`,
    path: `of-draft-${suffix}`,
    status: "active",
    content: hiddenTool("draft-hub-tool"),
  });

  const singlePages: PageCheck[] = [{ url: `/app/${single.appId}`, shows: "Topic of single" }];
  const hubPages: PageCheck[] = [
    { url: `/app/${hub.appId}`, shows: `Live tool ${suffix}` },
    { url: `/app/${hub.appId}/tool/${live.path}`, shows: "Topic of live-tool" },
    { url: `/tool/${live.path}`, shows: "Topic of live-tool" },
  ];
  const draftPages: PageCheck[] = [
    { url: `/app/${hub.appId}/tool/${draftTool.path}`, shows: "Topic of draft-tool" },
    { url: `/app/${draftSingle.appId}`, shows: "Topic of draft-single" },
    { url: `/app/${draftHub.appId}`, shows: `Tool of a draft ${suffix}` },
    { url: `/app/${draftHub.appId}/tool/${draftHubTool.path}`, shows: "Topic of draft-hub-tool" },
  ];

  // A stranger: no cookie at all.
  const stranger = await playwright.request.newContext({ baseURL });
  for (const check of [...singlePages, ...hubPages]) await expectNoSecrets(stranger, check, "stranger");
  await stranger.dispose();

  // End users, each signed in to their app.
  const singleUser = await endUserContext(browser, single.appId);
  for (const check of singlePages) await expectNoSecrets(singleUser.request, check, "end user");
  await singleUser.close();
  const hubUser = await endUserContext(browser, hub.appId);
  for (const check of hubPages) await expectNoSecrets(hubUser.request, check, "end user");
  await hubUser.close();

  // An admin (not the builder) sees the drafts too; so does the builder. Neither gets the recipe
  // in a public page: the builder reads it in the editor.
  for (const who of ["admin", "builder"] as const) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await logInAsBuilder(page, who === "admin" ? await createBuilder({ isAdmin: true }) : owner);
    for (const check of [...singlePages, ...hubPages, ...draftPages]) {
      await expectNoSecrets(context.request, check, who);
    }
    await context.close();
  }
});
