import crypto from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { getPlanCapabilities } from "../../lib/plans/capabilities";
import { fillTemplate } from "../../lib/text";
import { EditorPage } from "./pages/editor-page";
import { FieldsPanel } from "./pages/fields-panel";
import { createApp, createBuilder, readApp } from "./support/db";
import { MODEL_DOWN_WORD, MODEL_NO_JSON_WORD } from "./support/model-responder";
import { logInAsBuilder } from "./support/ui";

// Magic create, for real: the editor calls POST /api/builder/magicCreate, the app asks the model
// through the AI SDK, and the local OpenAI-compatible server (started by scripts/e2e.ts) answers
// over HTTP. Its failures are scripted by the words typed (tests/e2e/support/model-responder.ts).

test.use({ viewport: { width: 1280, height: 900 } });

async function openMagicCreate(page: Page, content: Record<string, unknown> = {}) {
  const builder = await createBuilder();
  const app = await createApp(builder, { header: `Magic ${crypto.randomUUID().slice(0, 6)}`, content });
  await logInAsBuilder(page, builder);
  const editor = new EditorPage(page, app.appId);
  await editor.goto("fields");
  const fields = new FieldsPanel(page);
  await fields.ready();
  await fields.magicCreate.click();
  const dialog = page.getByRole("dialog", { name: messages.fieldMagicTitle });
  await expect(dialog).toBeVisible();
  return {
    appId: app.appId,
    editor,
    fields,
    dialog,
    input: dialog.getByLabel(messages.fieldMagicInput, { exact: true }),
    submit: dialog.getByRole("button", { name: messages.fieldMagicSubmit }),
    error: dialog.getByRole("alert"),
  };
}

test("magic create designs a field with the model and adds it", async ({ page }) => {
  const { appId, editor, fields, dialog, input, submit } = await openMagicCreate(page, {
    gptPrompt: "Suggest an outfit.",
  });
  await input.fill("Favourite colour");
  const answered = page.waitForResponse((r) => r.url().endsWith("/api/builder/magicCreate"));
  await submit.click();
  expect((await answered).status()).toBe(200);
  await expect(dialog).toHaveCount(0);

  // The demo model makes a single choice of three options from a colour.
  const card = fields.card("Favourite colour");
  await expect(card).toContainText(messages.fieldTypeSelect);
  await expect
    .poll(() => fields.optionLabels("Favourite colour"))
    .toEqual(["Option one", "Option two", "Option three"]);
  await editor.expectSaved();
  expect((await readApp(appId))?.content.fields).toMatchObject([
    { name: "favourite_colour", label: "Favourite colour", type: "select" },
  ]);
});

test("magic create's failures say what happened, and the dialog stays for another try", async ({ page }) => {
  const { appId, editor, fields, dialog, input, submit, error } = await openMagicCreate(page, {
    fields: [{ name: "budget", label: "Budget" }],
  });

  // A name the app already has is refused before the model is asked.
  await input.fill("Budget");
  await submit.click();
  await expect(error).toHaveText(messages.magicFieldExists);

  // The provider is down.
  await input.fill(`Travel ${MODEL_DOWN_WORD}`);
  await submit.click();
  await expect(error).toHaveText(messages.magicEditFailed, { timeout: 20_000 });

  // The model answers, but with no field in it.
  await input.fill(`Mood ${MODEL_NO_JSON_WORD}`);
  await submit.click();
  await expect(error).toHaveText(messages.magicEditNoName);

  // The request never reaches the server.
  await page.route("**/api/builder/magicCreate", (route) => route.abort("connectionrefused"));
  await input.fill("Destination");
  await submit.click();
  await expect(error).toHaveText(messages.magicCreateFieldFailed);
  await page.unroute("**/api/builder/magicCreate");

  // Still open, the input kept: trying again works.
  await expect(dialog).toBeVisible();
  await expect(input).toHaveValue("Destination");
  await submit.click();
  await expect(dialog).toHaveCount(0);
  await expect(fields.card("Destination")).toBeVisible();
  await editor.expectSaved();
  expect((await readApp(appId))?.content.fields?.map((f) => f.name)).toEqual(["budget", "destination"]);
});

test("a builder whose AI requests are spent sees the limit's message and the upgrade dialog", async ({
  page,
}) => {
  const { appId, dialog, input, submit, error } = await openMagicCreate(page);
  // Earlier calls spent the lite plan's allowance of the minute (one budget for every AI request).
  const { modelCallsPerMinute } = getPlanCapabilities("lite");
  for (let i = 0; i < modelCallsPerMinute; i++) {
    const res = await page.request.post("/api/builder/magicCreate", {
      data: { input: `Extra ${i}`, magicType: "field", appId },
    });
    expect(res.status()).not.toBe(429);
  }

  await input.fill("Budget");
  const answered = page.waitForResponse((r) => r.url().endsWith("/api/builder/magicCreate"));
  await submit.click();
  expect((await answered).status()).toBe(429);
  const upgrade = page.getByRole("dialog", { name: messages.upgradeDialogTitle });
  await expect(upgrade).toBeVisible();
  await expect(upgrade).toContainText(messages.upgradeReasonModelCalls);
  await page.screenshot({ path: "test-results/model-limit-magic-create.png" });
  await page.keyboard.press("Escape");
  await expect(upgrade).toHaveCount(0);
  // The magic create dialog stays, saying why.
  await expect(dialog).toBeVisible();
  await expect(error).toHaveText(
    fillTemplate(messages.modelCallsPerMinuteReached, { n: modelCallsPerMinute }),
  );
});
