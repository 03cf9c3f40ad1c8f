import { expect, type Page, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { fillTemplate } from "../../lib/text";
import { THEME_COOKIE, THEME_COOKIE_MAX_AGE_S } from "../../lib/theme";
import { EditorPage } from "./pages/editor-page";
import { EmailActionPage } from "./pages/email-action-page";
import { FieldsPanel } from "./pages/fields-panel";
import { HomePage } from "./pages/home-page";
import { LoginPage } from "./pages/login-page";
import { expectNoA11yViolationsInBothThemes } from "./support/axe";
import { createApp, createBuilder, createPublishedApp, createTool } from "./support/db";
import { linkIn, waitForMail } from "./support/mail";
import { logInAsBuilder } from "./support/ui";

async function expectNoHorizontalScroll(page: Page, where: string): Promise<void> {
  const [scrollWidth, clientWidth] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(scrollWidth, `${where} scrolls sideways`).toBeLessThanOrEqual(clientWidth);
}

/**
 * An admin on a paid plan (every panel and setting shows) with one app of each kind: a published
 * single-tool app with fields, examples and the colorful style, a published generated app with
 * an active and a draft tool, and a space app.
 */
async function editorWorld() {
  const builder = await createBuilder({ plan: "explorer", isAdmin: true });
  const tag = Math.random().toString(36).slice(2, 8);
  const tool = await createApp(builder, {
    header: `Axe tool ${tag}`,
    status: "active",
    content: {
      description: "Plans a week of meals.",
      examples: ["Vegetarian", "Quick dinners"],
      gptPrompt: "Plan meals for [diet].",
      inputLabel: "What do you like?",
      fields: [
        { name: "diet", label: "Diet", type: "select", options: [{ label: "Vegan" }, { label: "Omnivore" }] },
        { name: "notes", label: "Notes", type: "long_text" },
      ],
      ctaMessage: "Want more?",
      ctaButton: "Book a call",
      ctaLink: "https://example.com",
    },
    style: {
      styleName: "colorful",
      background: "#7BDCB5",
      headerTextColor: "#000000",
      subheaderTextColor: "#000000",
      buttonTextColor: "#FFFFFF",
      buttonBackgroundColor: "#000000",
    },
  });
  const hub = await createApp(builder, {
    type: "generated",
    status: "active",
    header: `Axe hub ${tag}`,
    content: { description: "Tools for the kitchen." },
  });
  const path = `axe-${tag}`;
  const liveTool = await createTool(hub.appId, {
    title: "Shopping list",
    path,
    status: "active",
    content: { description: "Makes a list.", examples: ["For four"] },
  });
  await createTool(hub.appId, { title: "", path: `${path}-draft` });
  const space = await createApp(builder, { type: "space", header: `Axe space ${tag}` });
  return { builder, tool, hub, space, path, liveTool };
}

/** An invitation link to claim this app, as its admin copies it. */
async function inviteLink(page: Page, appId: string): Promise<string> {
  await page.request.post(`/api/apps/${appId}/settings`, {
    data: { baseRevision: 0, appSettings: { isClaimable: true } },
  });
  const res = await page.request.get(`/api/apps/${appId}/settings/claimInvitation`);
  expect(res.status()).toBe(200);
  return (await res.json()).inviteLink;
}

// axe on every page, in both colour themes: 0 violations. Each page is opened once and checked
// light, then dark (the page follows the system's scheme). (/dev/outbox does not exist in
// production, where these tests run.)

test.describe("both themes", () => {
  // axe takes seconds a page on two cores shared with the server and the other worker.
  test.describe.configure({ timeout: 300_000 });

  async function check(page: Page, path: string, ready: () => Promise<void>) {
    await page.goto(path);
    await ready();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "system");
    await expectNoA11yViolationsInBothThemes(page, path);
  }

  const heading = (page: Page, name: string | RegExp) => () =>
    expect(page.getByRole("heading", { name }).first()).toBeVisible();

  // The suite runs with reduced motion (playwright.config.ts); these pages, their dialog and
  // menu also with motion, as most visitors see them.
  test.describe("with motion", () => {
    test.use({ reducedMotion: "no-preference" });

    test("public pages", async ({ page }) => {
      const { appId } = await createPublishedApp("Axe App");
      await check(page, "/", heading(page, messages.landingTitle));
      await check(page, "/login", () => expect(new LoginPage(page).submit).toBeVisible());
      await check(page, "/signup", () =>
        expect(page.getByRole("button", { name: /sign up/i })).toBeVisible(),
      );
      await check(page, "/no-such-page", heading(page, messages.notFoundTitle));
      await check(page, "/error/unauthorized", heading(page, /./));
      await check(page, `/app/${appId}`, heading(page, /./));
      await check(page, `/app/${appId}/login`, heading(page, /./));
      await check(page, `/app/${appId}/signup`, heading(page, /./));
    });

    test("builder pages, the account menu and the upgrade dialog", async ({ page }) => {
      const user = await createBuilder();
      await logInAsBuilder(page, user);
      await expectNoA11yViolationsInBothThemes(page, `/home`);
      await check(page, "/settings", () => expect(page.getByText(messages.sessionCurrent)).toBeVisible());
      await check(page, "/joinplan", () => expect(page.getByRole("heading").first()).toBeVisible());
      await page.goto("/home?goto=upgrade_app_plan");
      await expect(page.getByRole("dialog")).toBeVisible();
      await expectNoA11yViolationsInBothThemes(page, `upgrade dialog`);
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: new RegExp(messages.accountMenu) }).click();
      await expect(page.getByRole("menu")).toBeVisible();
      await expectNoA11yViolationsInBothThemes(page, `account menu`, '[role="menu"]');
    });
  });

  test("the pages emailed links open", async ({ page }) => {
    // Every mode of the page emailed links land on, as a stale or broken link shows it.
    await check(page, "/auth/handler", heading(page, "Nothing to do here"));
    await check(
      page,
      "/auth/handler?mode=verifyEmail&oobCode=nope",
      heading(page, messages.verificationFailed),
    );
    await check(page, "/auth/handler?mode=signIn&oobCode=nope", heading(page, "Sign-in failed"));
    await check(
      page,
      "/auth/handler?mode=verifyAndChangeEmail&oobCode=nope&newEmail=e2e-new%40example.com",
      heading(page, "Email not changed"),
    );
  });

  test("the reset page and the signing-out page", async ({ page }) => {
    const user = await createBuilder();
    await new LoginPage(page).goto();
    await new LoginPage(page).requestPasswordReset(user.email);
    const link = linkIn(await waitForMail(user.email, { subject: "Reset your password" }));
    await new EmailActionPage(page).open(link);
    await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
    await expectNoA11yViolationsInBothThemes(page, `reset page`);

    // The signing-out card stays up while the sign-out request is held.
    await logInAsBuilder(page, user);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/api/auth/signout", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/logout");
    await expect(page.getByRole("heading", { name: messages.loggingOut })).toBeVisible();
    await expectNoA11yViolationsInBothThemes(page, `/logout`);
    release();
    await expect(page).toHaveURL(/\/login$/);
  });

  test("verify email page of an unverified builder", async ({ page }) => {
    const user = await createBuilder({ verified: false });
    const login = new LoginPage(page);
    await login.goto();
    await login.logIn(user.email, user.password);
    await expect(page).toHaveURL(/\/auth\/verifyEmail/);
    await expect(page.getByRole("heading").first()).toBeVisible();
    await expectNoA11yViolationsInBothThemes(page, `/auth/verifyEmail`);
  });

  test("home with apps, the create dialog, and the editor's menu and every panel", async ({ page }) => {
    const world = await editorWorld();
    await logInAsBuilder(page, world.builder);
    const home = new HomePage(page);
    await expect(home.appCard(world.tool.header)).toBeVisible();
    await expectNoA11yViolationsInBothThemes(page, `/home with apps`);
    await home.createAppButton.click();
    await expect(home.createDialog).toBeVisible();
    await expectNoA11yViolationsInBothThemes(page, `create app dialog`);
    await page.keyboard.press("Escape");

    const editor = new EditorPage(page, world.tool.appId);
    await editor.goto();
    await expect(editor.menu).toBeVisible();
    await expect(page.getByTestId("editor-preview").getByRole("heading", { level: 1 })).toBeVisible();
    await expectNoA11yViolationsInBothThemes(page, `editor menu`);
    const panels: [string, string][] = [
      [messages.editorMenuToolTexts, messages.editorMenuToolTexts],
      [messages.editorMenuBranding, messages.brandingTitle],
      [messages.editorMenuFields, messages.fieldsTitle],
      [messages.editorMenuResultsLayout, messages.editorResultsTitle],
      [messages.editorMenuCta, messages.editorCtaTitle],
      [messages.editorMenuDataSources, messages.editorDataSourcesTitle],
      [messages.editorMenuToolSettings, messages.appSettingsToolTitle],
    ];
    for (const [entry, heading] of panels) {
      await editor.openPanel(entry, heading);
      if (entry === messages.editorMenuFields) await new FieldsPanel(page).expand("Diet");
      await expectNoA11yViolationsInBothThemes(page, `editor panel ${entry}`);
      await editor.backToMenu.click();
      await expect(editor.menu).toBeVisible();
    }
  });

  test("the editor menus of a generated app and a space app, and their own panels", async ({ page }) => {
    const world = await editorWorld();
    await logInAsBuilder(page, world.builder);
    const hub = new EditorPage(page, world.hub.appId);
    await hub.goto();
    await expectNoA11yViolationsInBothThemes(page, `generated app editor menu`);
    await hub.openPanel(messages.editorMenuAppSettings, messages.appSettingsAppTitle);
    await expectNoA11yViolationsInBothThemes(page, `generated app settings`);
    const space = new EditorPage(page, world.space.appId);
    await space.goto("details");
    await expect(page.getByRole("heading", { level: 2, name: messages.editorDetailsTitle })).toBeVisible();
    await expectNoA11yViolationsInBothThemes(page, `space app details`);
  });

  test("the tools page, the tool editor and the claim page", async ({ page, browser }) => {
    const world = await editorWorld();
    await logInAsBuilder(page, world.builder);
    await check(page, `/build/app/${world.hub.appId}/tools`, heading(page, messages.toolsTitle));
    await page.getByRole("button", { name: messages.addTool }).click();
    await expect(page.getByRole("dialog", { name: messages.addToolTitle })).toBeVisible();
    await expectNoA11yViolationsInBothThemes(page, `add tool dialog`);
    await page.keyboard.press("Escape");

    const toolEditor = `/build/app/${world.hub.appId}/tool/${world.liveTool.toolId}`;
    await check(page, toolEditor, () =>
      expect(page.getByLabel(messages.editorHeader, { exact: true })).toHaveValue("Shopping list"),
    );
    for (const section of [messages.editorMenuFields, messages.toolPageSection]) {
      await page
        .getByRole("navigation", { name: messages.toolEditorSections })
        .getByRole("button", { name: section })
        .click();
      await expect(
        page.getByRole("heading", {
          level: 2,
          name: section === messages.editorMenuFields ? messages.fieldsTitle : section,
        }),
      ).toBeVisible();
      await expectNoA11yViolationsInBothThemes(page, `tool editor ${section}`);
    }

    // The claim page, as another builder opens the invitation.
    const link = await inviteLink(page, world.tool.appId);
    const other = await (await browser.newContext()).newPage();
    await logInAsBuilder(other, await createBuilder());
    await other.goto(link);
    await expect(other.getByRole("button", { name: messages.claimButton })).toBeVisible();
    await expectNoA11yViolationsInBothThemes(other, `claim page`);
    await other.goto("/claim/not-a-code");
    await expect(other.getByText(messages.claimInvalid)).toBeVisible();
    await expectNoA11yViolationsInBothThemes(other, `claim page, invalid link`);
    await other.context().close();
  });

  test("the published app pages", async ({ page }) => {
    const world = await editorWorld();
    const title = (name: string) => () => expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await check(page, `/app/${world.tool.appId}`, title(world.tool.header));
    await check(page, `/app/${world.hub.appId}`, title(world.hub.header));
    await check(page, `/app/${world.hub.appId}/tool/${world.path}`, title("Shopping list"));
    await check(page, `/tool/${world.path}`, title("Shopping list"));
    await check(page, `/app/${world.hub.appId}/tool/nothing-here`, () =>
      expect(
        page.getByRole("heading", {
          name: fillTemplate(messages.toolPathNotFound, { path: "nothing-here" }),
        }),
      ).toBeVisible(),
    );
    // A draft, as its builder sees it (with the banner).
    await logInAsBuilder(page, world.builder);
    await check(page, `/app/${world.space.appId}`, title(world.space.header));
  });

  test("the builder's new pages at 375 px, with nothing wider than the screen", async ({ page, browser }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    const world = await editorWorld();
    await logInAsBuilder(page, world.builder);
    await expect(new HomePage(page).appCard(world.tool.header)).toBeVisible();
    await expectNoHorizontalScroll(page, "/home with apps");
    const editor = new EditorPage(page, world.tool.appId);
    await editor.goto();
    await expectNoHorizontalScroll(page, "editor menu");
    for (const panel of ["texts", "branding", "fields", "call-to-action", "settings"]) {
      await editor.goto(panel);
      await expect(page.getByRole("heading", { level: 2 }).first()).toBeVisible();
      if (panel === "fields") await new FieldsPanel(page).expand("Diet");
      await expectNoHorizontalScroll(page, `editor panel ${panel}`);
    }
    await page.getByRole("button", { name: messages.editorPreview }).click();
    await expect(page.getByTestId("editor-preview")).toBeVisible();
    await expectNoHorizontalScroll(page, "editor preview on a phone");
    await page.goto(`/build/app/${world.hub.appId}/tools`);
    await expect(page.getByRole("heading", { level: 1, name: messages.toolsTitle })).toBeVisible();
    await expectNoHorizontalScroll(page, "tools page");
    await page.goto(`/build/app/${world.hub.appId}/tool/${world.liveTool.toolId}`);
    await expect(page.getByLabel(messages.editorHeader, { exact: true })).toBeVisible();
    await expectNoHorizontalScroll(page, "tool editor");
    const link = await inviteLink(page, world.tool.appId);
    const other = await (await browser.newContext({ viewport: { width: 375, height: 800 } })).newPage();
    await logInAsBuilder(other, await createBuilder());
    await other.goto(link);
    await expect(other.getByRole("button", { name: messages.claimButton })).toBeVisible();
    await expectNoHorizontalScroll(other, "claim page");
    await other.context().close();
    for (const path of [
      `/app/${world.tool.appId}`,
      `/app/${world.hub.appId}`,
      `/app/${world.hub.appId}/tool/${world.path}`,
    ]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      await expectNoHorizontalScroll(page, path);
    }
  });

  test("at 375 px, with nothing wider than the screen", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    const user = await createBuilder();
    await check(page, "/", () => expect(page.getByRole("heading", { level: 1 })).toBeVisible());
    await expectNoHorizontalScroll(page, "/");
    await logInAsBuilder(page, user);
    await check(page, "/joinplan", () => expect(page.getByRole("heading").first()).toBeVisible());
    await expectNoHorizontalScroll(page, "/joinplan");
    // One card a row: every card starts at the same x.
    const lefts = await page
      .locator("li[data-plan]")
      .evaluateAll((cards) => cards.map((c) => Math.round(c.getBoundingClientRect().left)));
    expect(new Set(lefts).size).toBe(1);
    await page.goto("/home?goto=upgrade_app_plan");
    const dialog = page.getByRole("dialog");
    await expect(dialog.locator("li[data-plan]").first()).toBeVisible();
    await expectNoA11yViolationsInBothThemes(page, `upgrade dialog at 375 px`);
    const box = await dialog.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
  });
});

test("a visitor who asks for less motion gets none: animations end at once", async ({ browser }) => {
  for (const reducedMotion of ["reduce", "no-preference"] as const) {
    const context = await browser.newContext({ reducedMotion });
    const page = await context.newPage();
    await page.goto("/login");
    const spinner = await page.evaluate(() => {
      const el = document.createElement("div");
      el.className = "animate-spin transition-colors";
      document.body.append(el);
      const style = getComputedStyle(el);
      return { iterations: style.animationIterationCount, transition: style.transitionDuration };
    });
    expect(spinner).toEqual(
      reducedMotion === "reduce"
        ? { iterations: "1", transition: "1e-05s" }
        : { iterations: "infinite", transition: "0.15s" },
    );
    await context.close();
  }
});

test("the theme toggle applies at once, is remembered for a year, and follows the system otherwise", async ({
  browser,
}) => {
  const context = await browser.newContext({ colorScheme: "dark" });
  const page = await context.newPage();
  await page.goto("/login");
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const toggle = page.getByRole("radiogroup", { name: messages.themeLabel });
  const option = (name: string) => toggle.getByRole("radio", { name });
  // "System" by default, and the system here is dark.
  await expect(option(messages.themeSystem)).toBeChecked();
  await expect.poll(background).toBe("rgb(9, 9, 11)");
  await option(messages.themeLight).click();
  await expect.poll(background).toBe("rgb(255, 255, 255)");
  await expect(option(messages.themeLight)).toBeChecked();
  const cookie = (await context.cookies()).find((c) => c.name === THEME_COOKIE);
  expect(cookie).toMatchObject({ value: "light", path: "/", sameSite: "Lax", secure: false });
  // A year from now (a minute of slack for the test's own pace).
  expect(Math.abs((cookie?.expires ?? 0) - (Date.now() / 1000 + THEME_COOKIE_MAX_AGE_S))).toBeLessThan(60);

  // The server renders the choice itself, the page and the toggle: nothing flashes on load.
  const html = await (await page.request.get("/login")).text();
  expect(html.match(/<html[^>]*>/)?.[0]).toContain('data-theme="light"');
  const checkedRadios = (html.match(/<input[^>]*type="radio"[^>]*>/g) ?? [])
    .filter((input) => input.includes('checked=""'))
    .map((input) => input.match(/value="(\w+)"/)?.[1]);
  expect(checkedRadios).toEqual(["light"]);
  await page.reload();
  await expect.poll(background).toBe("rgb(255, 255, 255)");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");

  // From the keyboard: one tab stop, the arrow keys move and choose.
  await option(messages.themeLight).focus();
  await page.keyboard.press("ArrowRight");
  await expect(option(messages.themeDark)).toBeChecked();
  await expect(option(messages.themeDark)).toBeFocused();
  await expect.poll(background).toBe("rgb(9, 9, 11)");
  await page.goto("/");
  await expect.poll(background).toBe("rgb(9, 9, 11)");
  await context.close();
});
