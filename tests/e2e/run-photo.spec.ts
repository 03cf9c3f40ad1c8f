import crypto from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { fillTemplate } from "../../lib/text";
import { ToolRunPage } from "./pages/tool-run-page";
import { expectNoA11yViolations } from "./support/axe";
import { createApp, createBuilder } from "./support/db";
import { rgbPng } from "./support/images";

// Photo fields on a tool's public page: the end user picks a photo on their device,
// sees it at once with the upload's progress, and runs the tool; the local model server
// (tests/support/openai-server.ts demoResponder, through tests/e2e/support/model-responder.ts)
// answers with what it received, so the answer shows the model saw the image itself.

const INPUT_LABEL = "Anything we should know?";
const PHOTO_LABEL = "Your outfit";

/** A photo of the outfit rater: its instructions use the photo field's tag, so the photo is sent. */
const raterContent = {
  inputLabel: INPUT_LABEL,
  gptPrompt: "You rate outfits. Rate the outfit in [outfit], kindly.",
  fields: [{ name: "outfit", label: PHOTO_LABEL, type: "photo", required: true }],
};

/**
 * A real PNG made here: a diagonal gradient with random low bits, so it does not compress and
 * its upload takes long enough on a slow line to watch its progress.
 */
function photoPng(size: number): Buffer {
  const noise = crypto.randomBytes(size * size * 3);
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 3;
      const t = (x + y) / (2 * size);
      row[1 + x * 3] = Math.round(40 + 180 * t) ^ (noise[i]! & 0x1f);
      row[2 + x * 3] = Math.round(90 + 60 * (1 - t)) ^ (noise[i + 1]! & 0x1f);
      row[3 + x * 3] = Math.round(200 - 120 * t) ^ (noise[i + 2]! & 0x1f);
    }
    rows.push(row);
  }
  return rgbPng(size, size, Buffer.concat(rows));
}

/** Picks `file` with the field's "Choose a photo" button, through the browser's file chooser. */
async function choosePhoto(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  const chooser = page.waitForEvent("filechooser");
  await page
    .getByRole("button", {
      name: new RegExp(`^(${messages.publicPhotoChoose}|${messages.publicPhotoReplace})$`),
    })
    .click();
  await (await chooser).setFiles(file);
}

const thumbnail = (page: Page) =>
  page.getByRole("img", { name: fillTemplate(messages.publicPhotoAlt, { label: PHOTO_LABEL }) });

async function expectThumbnailShown(page: Page) {
  await expect(thumbnail(page)).toBeVisible();
  await expect
    .poll(() => thumbnail(page).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
}

test("on a phone, an end user takes their photo, watches it upload, and the model sees it", async ({
  browser,
}, info) => {
  test.setTimeout(90_000);
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, {
    status: "active",
    header: "Outfit rater",
    content: raterContent,
  });
  const phone = await browser.newContext({
    viewport: { width: 375, height: 800 },
    hasTouch: true,
    isMobile: true,
  });
  const page = await phone.newPage();
  const tool = new ToolRunPage(page, appId, INPUT_LABEL);
  await tool.goto();

  // Labelled, keyboard reachable; on a touch screen the camera has a button of its own.
  const choose = page.getByRole("button", { name: messages.publicPhotoChoose });
  await expect(page.getByRole("group", { name: PHOTO_LABEL })).toBeVisible();
  await expect(page.getByRole("button", { name: messages.publicPhotoTake })).toBeVisible();
  await expect(page.getByRole("img", { name: messages.publicPhotoNone })).toBeVisible();
  await expectNoA11yViolations(page, "photo field, empty (phone)");

  // Run with no photo: the field says so and takes the focus.
  await tool.mainInput.fill("It's for a summer wedding.");
  await tool.run.click();
  const fieldError = page.getByRole("group", { name: PHOTO_LABEL }).getByRole("alert");
  await expect(fieldError).toHaveText(fillTemplate(messages.runFieldRequired, { label: PHOTO_LABEL }));
  await expect(choose).toBeFocused();

  // A slow line: the upload's progress can be watched.
  const cdp = await phone.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 48 * 1024,
  });
  const png = photoPng(220);
  await choosePhoto(page, { name: "outfit.png", mimeType: "image/png", buffer: png });
  const progress = page.getByRole("progressbar", { name: messages.dataSourceUploadProgress });
  await expect(progress).toBeVisible();
  await expectThumbnailShown(page);
  await expect(page.getByText(/^Uploading\.\.\. \d+%$/)).toBeVisible();
  await page.screenshot({ path: info.outputPath("photo-uploading-phone.png"), fullPage: true });
  // Run before the upload ends: the form waits for the photo.
  await tool.run.click();
  await expect(fieldError).toHaveText(messages.publicPhotoWait);
  await expect.poll(() => progress.getAttribute("aria-valuenow"), { timeout: 20_000 }).not.toBe("0");

  await expect(progress).toBeHidden({ timeout: 30_000 });
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await expect(page.getByText(messages.publicPhotoUploaded)).toBeAttached();
  await expect(fieldError).toBeHidden();
  await expect(page.getByRole("button", { name: messages.publicPhotoReplace })).toBeVisible();
  await expect(page.getByRole("button", { name: messages.publicPhotoRemove })).toBeVisible();
  await expectThumbnailShown(page);
  await expectNoA11yViolations(page, "photo field, uploaded (phone)");

  await tool.run.click();
  await tool.expectStatus("success");
  await expect(tool.answer).toContainText(`I received an image (image/png, ${png.length} bytes).`);
  await expect(tool.answer).toContainText("It's for a summer wedding.");
  await expectNoA11yViolations(page, "photo field, answered (phone)");
  await page.screenshot({ path: info.outputPath("photo-answered-phone.png"), fullPage: true });
  await phone.close();
});

test("on a dark app at desktop size: a file that is no image is refused in the field, a photo is removed with the keyboard", async ({
  page,
}, info) => {
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, {
    status: "active",
    header: "Outfit rater, dark",
    content: raterContent,
    style: {
      styleName: "dark",
      background: "#111827",
      headerTextColor: "#f9fafb",
      subheaderTextColor: "#d1d5db",
    },
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  const tool = new ToolRunPage(page, appId, INPUT_LABEL);
  await tool.goto();
  // No touch screen: one button, the chooser (which offers the camera where there is one).
  await expect(page.getByRole("button", { name: messages.publicPhotoTake })).toBeHidden();

  // Not an image: refused before it is sent, in the field's error slot.
  await choosePhoto(page, { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
  const group = page.getByRole("group", { name: PHOTO_LABEL });
  await expect(group.getByRole("alert")).toHaveText(messages.runPhotoType);
  // A file that says it is a PNG but is not one: the server decides by its bytes.
  await choosePhoto(page, {
    name: "fake.png",
    mimeType: "image/png",
    buffer: Buffer.from("not really a png"),
  });
  await expect(group.getByRole("alert")).toHaveText(messages.runPhotoType);
  await expectNoA11yViolations(page, "photo field, refused (dark)");
  await page.screenshot({ path: info.outputPath("photo-refused-dark.png"), fullPage: true });

  await choosePhoto(page, { name: "outfit.png", mimeType: "image/png", buffer: photoPng(64) });
  await expectThumbnailShown(page);
  await expect(group.getByRole("alert")).toBeHidden();
  await expectNoA11yViolations(page, "photo field, uploaded (dark)");
  await page.screenshot({ path: info.outputPath("photo-uploaded-dark.png"), fullPage: true });

  // Removed with the keyboard: the focus stays in the field, on the chooser.
  await page.getByRole("button", { name: messages.publicPhotoRemove }).focus();
  await page.keyboard.press("Enter");
  await expect(thumbnail(page)).toHaveCount(0);
  await expect(page.getByRole("button", { name: messages.publicPhotoChoose })).toBeFocused();
  await expect(page.getByText(messages.publicPhotoRemoved)).toBeAttached();
  await tool.run.click();
  await expect(group.getByRole("alert")).toHaveText(
    fillTemplate(messages.runFieldRequired, { label: PHOTO_LABEL }),
  );
});
