import crypto from "node:crypto";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { fillTemplate } from "../../lib/text";
import { EditorPage } from "./pages/editor-page";
import { type AppKindName, HomePage } from "./pages/home-page";
import { PublicAppPage } from "./pages/public-app-page";
import { createApp, createBuilder, readApp } from "./support/db";
import { logInAsBuilder, toast } from "./support/ui";

// A builder creates each kind of app from /home, fills its texts in the editor, publishes it,
// and a visitor (another browser context, signed out) sees it; drafts stay with their builder;
// an app is deleted from /home.

test.use({ viewport: { width: 1280, height: 900 } });

const suffix = () => crypto.randomUUID().slice(0, 6);

/** A signed-out visitor's page, in a context of its own (no cookies shared with the builder). */
async function visitor(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

const kinds: {
  kind: AppKindName;
  label: string;
  /** The menu entry of its texts, and the panel's heading. */
  textsEntry: string;
  textsHeading: string;
  /** What the public page shows besides the texts. */
  publicNote: string | null;
}[] = [
  {
    kind: "tool",
    label: messages.appKindTool,
    textsEntry: messages.editorMenuToolTexts,
    textsHeading: messages.editorMenuToolTexts,
    publicNote: null,
  },
  {
    kind: "generated",
    label: messages.appKindGenerated,
    textsEntry: messages.editorMenuAppTexts,
    textsHeading: messages.editorMenuAppTexts,
    publicNote: messages.publicNoTools,
  },
  {
    kind: "space",
    label: messages.appKindSpace,
    textsEntry: messages.editorMenuAppDetails,
    textsHeading: messages.editorDetailsTitle,
    publicNote: messages.publicSpaceNotAvailable,
  },
];

for (const { kind, label, textsEntry, textsHeading, publicNote } of kinds) {
  test(`create a ${label} from /home, fill its texts, publish, and a visitor sees it`, async ({
    page,
    browser,
  }) => {
    const builder = await createBuilder();
    await logInAsBuilder(page, builder);
    const home = new HomePage(page);
    // A new builder is invited to create the first app.
    await expect(home.emptyState).toBeVisible();
    await expect(page.getByText(messages.homeEmptyText)).toBeVisible();

    const name = `${label} ${suffix()}`;
    const appId = await home.createApp(kind, name);
    const editor = new EditorPage(page, appId);
    await expect(editor.title).toHaveText(name);
    await expect(editor.indicator).toHaveText(messages.publishNotPublished);

    // Not published yet: a visitor gets the 404 page.
    const stranger = await visitor(browser);
    const publicPage = new PublicAppPage(stranger, appId);
    await publicPage.goto();
    await expect(publicPage.notFound).toBeVisible();

    await editor.openPanel(textsEntry, textsHeading);
    await expect(editor.header).toHaveValue(name);
    const header = `${name} header`;
    const description = `What ${name} does, in one sentence.`;
    await editor.header.fill(header);
    // Every edit shows 'Saving...' until the debounced save is answered.
    await expect(editor.indicator).toHaveText(messages.publishSaving);
    await editor.description.fill(description);
    const examples = kind === "tool" ? ["A light lunch", "Dinner for two"] : [];
    for (const [i, example] of examples.entries()) await editor.fillExample(i + 1, example);
    if (kind !== "tool") await expect(editor.addExample).toHaveCount(0);
    await editor.expectSaved(false);

    const saved = await readApp(appId);
    expect(saved?.header).toBe(header);
    expect(saved?.content).toMatchObject({ header, description, examples });

    await editor.publishApp();
    await expect(toast(page, messages.editorPublishedToast)).toBeVisible();
    expect((await readApp(appId))?.status).toBe("active");

    // The visitor, signed out in their own browser context, sees the published page.
    await publicPage.goto();
    await expect(publicPage.heading).toHaveText(header);
    await expect(stranger.getByText(description)).toBeVisible();
    for (const example of examples) await expect(publicPage.example(example)).toBeVisible();
    if (publicNote) await expect(stranger.getByText(publicNote)).toBeVisible();
    await expect(publicPage.draftBanner).toHaveCount(0);
    await stranger.context().close();

    // Back on /home the app is listed, published.
    await home.goto();
    const card = home.appCard(header);
    await expect(card).toContainText(label);
    await expect(card).toContainText(messages.publishPublished);
  });
}

test("a draft app is its builder's alone: a banner for them, the 404 page for anybody else", async ({
  page,
  browser,
}) => {
  const builder = await createBuilder();
  const { appId, header } = await createApp(builder, {
    header: `Draft ${suffix()}`,
    content: { description: "Not ready yet" },
  });
  await logInAsBuilder(page, builder);
  const own = new PublicAppPage(page, appId);
  await own.goto();
  await expect(own.heading).toHaveText(header);
  await expect(own.draftBanner).toBeVisible();

  const stranger = await visitor(browser);
  const theirs = new PublicAppPage(stranger, appId);
  await theirs.goto();
  await expect(theirs.notFound).toBeVisible();
  await expect(stranger.getByText(header)).toHaveCount(0);

  // Another builder, signed in, gets the same 404 page (and cannot open the editor either).
  await logInAsBuilder(stranger, await createBuilder());
  await theirs.goto();
  await expect(theirs.notFound).toBeVisible();
  await stranger.goto(`/build/app/${appId}`);
  await expect(theirs.notFound).toBeVisible();
  await stranger.context().close();
});

test("delete an app from /home: the confirm dialog, then it is gone", async ({ page }) => {
  const builder = await createBuilder();
  const kept = await createApp(builder, { header: `Kept ${suffix()}` });
  const doomed = await createApp(builder, { header: `Doomed ${suffix()}`, type: "generated" });
  await logInAsBuilder(page, builder);
  const home = new HomePage(page);
  await expect(home.appCard(doomed.header)).toBeVisible();

  // Cancelling keeps it.
  await home
    .appCard(doomed.header)
    .getByRole("button", { name: fillTemplate(messages.appActions, { name: doomed.header }) })
    .click();
  await page.getByRole("menuitem", { name: messages.appDelete }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: messages.cancel }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(home.appCard(doomed.header)).toBeVisible();

  await home.deleteApp(doomed.header);
  await expect(toast(page, fillTemplate(messages.deletedName, { name: doomed.header }))).toBeVisible();
  await expect(home.appCard(doomed.header)).toHaveCount(0);
  await expect(home.appCard(kept.header)).toBeVisible();
  expect(await readApp(doomed.appId)).toBeUndefined();

  await page.reload();
  await expect(home.appCard(kept.header)).toBeVisible();
  await expect(home.appCard(doomed.header)).toHaveCount(0);
});
