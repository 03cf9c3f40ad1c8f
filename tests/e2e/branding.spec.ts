import crypto from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { EditorPage } from "./pages/editor-page";
import { PublicAppPage } from "./pages/public-app-page";
import { createApp, createBuilder, readApp } from "./support/db";
import { solidPng } from "./support/images";
import { logInAsBuilder } from "./support/ui";

// The Branding panel: a logo uploaded with its progress shown, the 'colorful' preset
// (background 7BDCB5), published and seen by a visitor; a file that only claims to be an
// image is refused by its content.

test.use({ viewport: { width: 1280, height: 900 } });

const COLORFUL_BACKGROUND = "rgb(123, 220, 181)"; // #7BDCB5

async function openBranding(page: Page) {
  const builder = await createBuilder();
  const app = await createApp(builder, { header: `Brand ${crypto.randomUUID().slice(0, 6)}` });
  await logInAsBuilder(page, builder);
  const editor = new EditorPage(page, app.appId);
  await editor.goto("branding");
  await expect(page.getByRole("heading", { level: 2, name: messages.brandingTitle })).toBeVisible();
  const logo = page.getByRole("group", { name: messages.brandingLogo, exact: true });
  return { ...app, editor, logo };
}

/** Chooses a file for an image field the way a person does: its button, then the file chooser. */
async function chooseFile(
  page: Page,
  field: ReturnType<Page["getByRole"]>,
  file: { name: string; mimeType: string; buffer: Buffer },
) {
  const chooser = page.waitForEvent("filechooser");
  await field.getByRole("button", { name: messages.imageChoose }).click();
  await (await chooser).setFiles(file);
}

test("upload a logo with its progress, pick Colorful, publish: a visitor sees both", async ({
  page,
  browser,
}) => {
  const { appId, header, editor, logo } = await openBranding(page);

  // Hold the upload on its way, so its progress can be seen.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(`**/api/apps/${appId}/uploads?*`, async (route) => {
    await held;
    await route.continue();
  });
  await chooseFile(page, logo, {
    name: "logo.png",
    mimeType: "image/png",
    buffer: solidPng(48, 24, [200, 40, 90]),
  });
  const progress = logo.getByRole("progressbar", { name: messages.brandingLogo });
  await expect(progress).toBeVisible();
  await expect(progress).toHaveAttribute("aria-valuetext", /^Uploading \d{1,3}%$/);
  await expect(logo.getByText(/^Uploading \d{1,3}%$/)).toBeVisible();
  release();
  await expect(progress).toHaveCount(0);
  await expect(logo.getByRole("img", { name: messages.brandingLogo })).toBeVisible();
  await expect(logo.getByRole("button", { name: messages.imageReplace })).toBeVisible();

  // The Colorful preset sets its colours; the preview follows at once.
  await page.getByText(messages.brandingPresetColorful, { exact: true }).click();
  await expect(page.getByRole("radio", { name: messages.brandingPresetColorful })).toBeChecked();
  const preview = page.getByTestId("editor-preview").locator("[data-public-app]");
  await expect(preview).toHaveCSS("background-color", COLORFUL_BACKGROUND);

  await editor.publishApp();
  const style = (await readApp(appId))?.style;
  expect(style).toMatchObject({ styleName: "colorful", background: "#7BDCB5" });
  expect(style?.logoUrl).toEqual(expect.any(String));

  const visitor = await (await browser.newContext()).newPage();
  const publicPage = new PublicAppPage(visitor, appId);
  await publicPage.goto();
  await expect(publicPage.heading).toHaveText(header);
  await expect(publicPage.root).toHaveCSS("background-color", COLORFUL_BACKGROUND);
  await expect(publicPage.root).toHaveAttribute("data-app-style", "colorful");
  const publicLogo = publicPage.logo(header);
  await expect(publicLogo).toBeVisible();
  // The image itself loads: it is served from storage, not just named.
  await expect.poll(() => publicLogo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(48);
  await visitor.context().close();
});

test("a text file named .png is refused with the spec's message and the reason, and nothing changes", async ({
  page,
}) => {
  const { appId, editor, logo } = await openBranding(page);
  await chooseFile(page, logo, {
    name: "notes.png",
    mimeType: "image/png",
    buffer: Buffer.from("These are my notes, not a picture.\n"),
  });
  await expect(logo.getByRole("alert")).toHaveText(messages.uploadNotAnImage);
  await expect(logo.getByRole("img", { name: messages.imageNone })).toBeVisible();
  await expect(editor.indicator).toHaveText(messages.publishNotPublished);
  expect((await readApp(appId))?.style?.logoUrl ?? null).toBeNull();

  // A real image afterwards works, and removing it deletes it from storage.
  await chooseFile(page, logo, {
    name: "logo.png",
    mimeType: "image/png",
    buffer: solidPng(8, 8, [0, 0, 0]),
  });
  await expect(logo.getByRole("alert")).toHaveCount(0);
  const image = logo.getByRole("img", { name: messages.brandingLogo });
  await expect(image).toBeVisible();
  const src = await image.getAttribute("src");
  expect((await page.request.get(src!)).status()).toBe(200);
  await logo.getByRole("button", { name: messages.imageRemove }).click();
  await expect(logo.getByRole("img", { name: messages.imageNone })).toBeVisible();
  expect((await page.request.get(src!)).status()).toBe(404);
  await editor.expectSaved();
  expect((await readApp(appId))?.style?.logoUrl ?? null).toBeNull();
});

test("a button text colour that would not read on the button is named in the panel, with the colour the page shows", async ({
  page,
}, info) => {
  await openBranding(page);
  const preview = page.getByTestId("editor-preview").locator("[data-public-app]");
  const runButton = preview.getByRole("button", { name: messages.publicRun });
  // The default button is black with white text: nothing to say.
  const buttonText = page.getByLabel(messages.brandingButtonText, { exact: true });
  await expect(buttonText).toHaveValue("#FFFFFF");
  const note = page.getByTestId("color-replaced-buttonTextColor");
  await expect(note).toHaveCount(0);

  // Near-black text on the black button: the page shows white instead, and the panel says so.
  await buttonText.fill("#111111");
  const said = messages.brandingColorReplacedOnButton.replace("{color}", "#FFFFFF");
  await expect(note).toHaveText(said);
  await expect(buttonText).toHaveAccessibleDescription(said);
  await expect(runButton).toHaveCSS("color", "rgb(255, 255, 255)");
  await page.screenshot({ path: info.outputPath("branding-color-replaced.png"), fullPage: true });

  // A colour that reads on the button is kept, and the note goes.
  await buttonText.fill("#FDE68A");
  await expect(note).toHaveCount(0);
  await expect(runButton).toHaveCSS("color", "rgb(253, 230, 138)");
});
