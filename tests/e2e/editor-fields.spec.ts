import crypto from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { getPlanCapabilities } from "../../lib/plans/capabilities";
import { fillTemplate } from "../../lib/text";
import { EditorPage } from "./pages/editor-page";
import { FieldsPanel } from "./pages/fields-panel";
import { createApp, createBuilder, readApp, type SeedApp } from "./support/db";
import { logInAsBuilder, toast } from "./support/ui";

// Every rule of the custom fields panel as the builder meets it,
// on the lite plan unless said otherwise, and options reordered with the mouse and the keyboard.

test.use({ viewport: { width: 1280, height: 900 } });

const LITE_MAX_FIELDS = getPlanCapabilities("lite").maxCustomFields;

/** A single-tool app (a lite builder's unless told otherwise), opened on its Custom fields panel. */
async function openFields(
  page: Page,
  content: SeedApp["content"] = {},
  opts: { plan?: string; isAdmin?: boolean; settings?: SeedApp["settings"] } = {},
) {
  const builder = await createBuilder({ plan: opts.plan, isAdmin: opts.isAdmin });
  const app = await createApp(builder, {
    header: `Fields ${crypto.randomUUID().slice(0, 6)}`,
    content,
    settings: opts.settings,
  });
  await logInAsBuilder(page, builder);
  const editor = new EditorPage(page, app.appId);
  await editor.goto("fields");
  const fields = new FieldsPanel(page);
  await fields.ready();
  return { ...app, editor, fields };
}

const savedFields = async (appId: string) => (await readApp(appId))?.content.fields ?? [];

test(`names: 'input' is reserved, names are unique, and lite stops at ${LITE_MAX_FIELDS} fields`, async ({
  page,
}) => {
  const seeded = Array.from({ length: LITE_MAX_FIELDS - 2 }, (_, i) => ({
    name: `field_${i + 1}`,
    label: `Field ${i + 1}`,
  }));
  const { appId, editor, fields } = await openFields(page, {
    fields: [{ name: "colour", label: "Colour" }, ...seeded.slice(1)],
  });

  await fields.addField("Input");
  await expect(fields.addError()).toHaveText(messages.reservedFieldName);
  await fields.addField("input");
  await expect(fields.addError()).toHaveText(messages.reservedFieldName);

  // Unique whatever the case.
  await fields.addField("COLOUR");
  await expect(fields.addError()).toHaveText(messages.fieldExists);
  // Typing again clears the message.
  await fields.name.fill("Budget");
  await expect(fields.addError()).toHaveCount(0);

  await fields.add.click();
  await expect(fields.card("Budget")).toBeVisible();
  await fields.addField("Mood");
  await expect(fields.card("Mood")).toBeVisible();
  await expect(
    page.getByText(fillTemplate(messages.fieldsCount, { count: LITE_MAX_FIELDS, max: LITE_MAX_FIELDS })),
  ).toBeVisible();

  await fields.addField("One too many");
  await expect(fields.addError()).toHaveText(fillTemplate(messages.maxCustomFields, { n: LITE_MAX_FIELDS }));
  await expect(fields.card("One too many")).toHaveCount(0);
  // The limit can be lifted: the upgrade dialog is one click away.
  await fields.addForm.getByRole("button", { name: messages.fieldUpgrade }).click();
  const upgrade = page.getByRole("dialog", { name: messages.upgradeDialogTitle });
  await expect(upgrade).toContainText(messages.upgradeReasonCustomFields);
  await page.keyboard.press("Escape");

  await editor.expectSaved();
  expect((await savedFields(appId)).map((f) => f.name)).toEqual([
    "colour",
    ...seeded.slice(1).map((f) => f.name),
    "budget",
    "mood",
  ]);
});

test("photo on lite opens the upgrade dialog instead of being picked", async ({ page }) => {
  const { fields } = await openFields(page);
  await fields.pickType(messages.fieldTypePhoto);
  const upgrade = page.getByRole("dialog", { name: messages.upgradeDialogTitle });
  await expect(upgrade).toBeVisible();
  await expect(upgrade).toContainText(messages.upgradeReasonPhotoFields);
  await page.keyboard.press("Escape");
  await expect(upgrade).toHaveCount(0);
  await expect(fields.type).toHaveText(messages.fieldTypeText);
});

/** The type names a type list offers (their first line: the name, without its badge). */
async function offeredTypes(page: Page, fields: FieldsPanel): Promise<string[]> {
  await fields.type.click();
  const names = await page.getByRole("option").allInnerTexts();
  await page.keyboard.press("Escape");
  return names;
}

test("lite, not an admin: no place or data item types, no memorize or filter condition", async ({ page }) => {
  const { fields } = await openFields(page, { fields: [{ name: "budget", label: "Budget" }] });
  const types = (await offeredTypes(page, fields)).join("\n");
  expect(types).not.toContain(messages.fieldTypePlace);
  expect(types).not.toContain(messages.fieldTypeToolItemSelect);
  expect(types).toContain(`${messages.fieldTypePhoto}`);
  expect(types).toContain(messages.fieldTypePaidOnly);
  await fields.expand("Budget");
  await expect(
    fields.card("Budget").getByRole("switch", { name: messages.fieldPersonal, exact: true }),
  ).toBeVisible();
  await expect(fields.card("Budget").getByRole("switch", { name: messages.fieldMemorize })).toHaveCount(0);
  await expect(
    fields.card("Budget").getByRole("combobox", { name: messages.fieldFilterCondition }),
  ).toHaveCount(0);
});

test("an admin gets the admin types; memorize with sign-up (not for photos); the filter condition with smart filtering", async ({
  page,
}) => {
  const { fields } = await openFields(
    page,
    {
      fields: [
        { name: "budget", label: "Budget" },
        { name: "selfie", label: "Selfie", type: "photo" },
      ],
    },
    {
      plan: "explorer",
      isAdmin: true,
      settings: { isSignupEnabled: true, aiQueryMethod: "smart_items_filtering" },
    },
  );
  const types = (await offeredTypes(page, fields)).join("\n");
  expect(types).toContain(messages.fieldTypePlace);
  expect(types).toContain(messages.fieldTypeToolItemSelect);
  expect(types).not.toContain(messages.fieldTypePaidOnly);
  await fields.expand("Budget");
  const budget = fields.card("Budget");
  await expect(budget.getByRole("switch", { name: messages.fieldMemorize })).toBeVisible();
  await expect(budget.getByRole("combobox", { name: messages.fieldFilterCondition })).toBeVisible();
  await fields.expand("Selfie");
  await expect(fields.card("Selfie").getByRole("switch", { name: messages.fieldMemorize })).toHaveCount(0);
});

test("an email field is always personal", async ({ page }) => {
  const { appId, editor, fields } = await openFields(page);
  await fields.addField("Contact email", messages.fieldTypeEmail);
  const card = fields.card("Contact email");
  await expect(card).toContainText(messages.fieldPersonalBadge);
  // The new field opens for its details: personal, and it cannot be switched off.
  const personal = card.getByRole("switch", { name: messages.fieldPersonal, exact: true });
  await expect(personal).toBeChecked();
  await expect(personal).toBeDisabled();
  await expect(card.getByText(messages.fieldEmailAlwaysPersonal)).toBeVisible();
  await editor.expectSaved();
  expect(await savedFields(appId)).toMatchObject([{ name: "contact_email", type: "email", personal: true }]);
});

test("a field not in the instructions needs activation; one click adds its tag", async ({ page }) => {
  const { appId, editor, fields } = await openFields(page, {
    fields: [{ name: "budget", label: "Budget" }],
    gptPrompt: "Plan a trip.",
  });
  const card = fields.card("Budget");
  await expect(card).toContainText(messages.fieldNeedsActivation);
  await expect(card).toContainText(fillTemplate(messages.fieldNeedsActivationHint, { tag: "[budget]" }));

  await card.getByRole("button", { name: fillTemplate(messages.fieldActivate, { tag: "[budget]" }) }).click();
  await expect(toast(page, fillTemplate(messages.fieldActivated, { tag: "[budget]" }))).toBeVisible();
  await expect(card).not.toContainText(messages.fieldNeedsActivation);
  await editor.expectSaved();
  expect((await readApp(appId))?.content.gptPrompt).toBe("Plan a trip. [budget]");
});

test("a field whose tag is in the instructions cannot be deleted until the tag is gone", async ({ page }) => {
  const { appId, editor, fields } = await openFields(page, {
    fields: [{ name: "diet", label: "Diet" }],
    gptPrompt: "Plan meals for [diet].",
  });
  await fields.deleteButton("Diet").click();
  await expect(fields.card("Diet").getByRole("alert")).toHaveText(
    fillTemplate(messages.fieldInUse, { name: "diet" }),
  );
  await expect(page.getByRole("alertdialog")).toHaveCount(0);

  // Take the tag out of the instructions (Tool texts), then come back.
  await editor.backToMenu.click();
  await editor.openPanel(messages.editorMenuToolTexts);
  await editor.instructions.fill("Plan meals.");
  await editor.backToMenu.click();
  await editor.openPanel(messages.editorMenuFields, messages.fieldsTitle);

  await fields.deleteButton("Diet").click();
  const confirm = page.getByRole("alertdialog", {
    name: fillTemplate(messages.fieldDeleteTitle, { label: "Diet" }),
  });
  await confirm.getByRole("button", { name: messages.fieldDeleteConfirm }).click();
  await expect(fields.card("Diet")).toHaveCount(0);
  await expect(page.getByText(messages.fieldsEmptyTitle)).toBeVisible();
  await editor.expectSaved();
  const saved = await readApp(appId);
  expect(saved?.content.fields).toEqual([]);
  expect(saved?.content.gptPrompt).toBe("Plan meals.");
});

test("options: an empty one and a repeated one are refused", async ({ page }) => {
  const { appId, editor, fields } = await openFields(page, {
    fields: [
      { name: "colour", label: "Colour", type: "select", options: [{ label: "Red" }, { label: "Green" }] },
    ],
  });
  await fields.expand("Colour");
  await fields.addOption("Colour").click();
  await expect(fields.optionError("Colour")).toHaveText(messages.optionEmpty);
  await fields.newOption("Colour").fill("   ");
  await fields.newOption("Colour").press("Enter");
  await expect(fields.optionError("Colour")).toHaveText(messages.optionEmpty);

  await fields.newOption("Colour").fill("red");
  await fields.addOption("Colour").click();
  await expect(fields.optionError("Colour")).toHaveText(messages.optionExists);

  await fields.newOption("Colour").fill("Blue");
  await fields.newOption("Colour").press("Enter");
  await expect(fields.optionError("Colour")).toHaveCount(0);
  await expect.poll(() => fields.optionLabels("Colour")).toEqual(["Red", "Green", "Blue"]);
  await editor.expectSaved();
  expect((await savedFields(appId))[0]?.options.map((o) => o.label)).toEqual(["Red", "Green", "Blue"]);
});

test("multi-step input needs a custom field first", async ({ page }) => {
  const { appId, editor, fields } = await openFields(page);
  await expect(fields.stepsSwitch).toBeDisabled();
  await expect(page.getByText(messages.stepsNeedFields)).toBeVisible();

  await fields.addField("Destination");
  await expect(fields.stepsSwitch).toBeEnabled();
  await fields.stepsSwitch.click();
  await expect(fields.stepsSwitch).toBeChecked();
  await page.getByLabel(fillTemplate(messages.stepTitle, { n: 1 }), { exact: true }).fill("Where to");
  await editor.expectSaved();
  const saved = (await readApp(appId))?.content as unknown as {
    isMultiStepInput: boolean;
    inputSteps: { id: string; title: string }[];
    fields: { stepId: string }[];
  };
  expect(saved.isMultiStepInput).toBe(true);
  expect(saved.inputSteps).toHaveLength(1);
  expect(saved.inputSteps[0]?.id).toMatch(/^[A-Za-z0-9]{4}$/);
  expect(saved.inputSteps[0]?.title).toBe("Where to");
  expect(saved.fields[0]?.stepId).toBe(saved.inputSteps[0]?.id);
});

const sizes = {
  fields: [
    {
      name: "size",
      label: "Size",
      type: "select",
      options: [{ label: "Small" }, { label: "Medium" }, { label: "Large" }],
    },
  ],
};

/** After a reload, the options as the editor shows them and as they are stored. */
async function expectOrderKept(page: Page, appId: string, fields: FieldsPanel, order: string[]) {
  await new EditorPage(page, appId).expectSaved();
  expect((await savedFields(appId))[0]?.options.map((o) => o.label)).toEqual(order);
  await page.reload();
  await fields.ready();
  await fields.expand("Size");
  await expect.poll(() => fields.optionLabels("Size")).toEqual(order);
}

test("drag an option to a new place with the mouse", async ({ page }) => {
  const { appId, fields } = await openFields(page, sizes);
  await fields.expand("Size");
  // The whole list on screen: the mouse only reaches what is in the viewport.
  await fields.newOption("Size").scrollIntoViewIfNeeded();
  const from = await fields.dragHandle("Large").boundingBox();
  const to = await fields.dragHandle("Small").boundingBox();
  if (!from || !to) throw new Error("the drag handles are not on screen");
  const start = { x: from.x + from.width / 2, y: from.y + from.height / 2 };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  // A few pixels first: the drag starts after 4 px of movement (a click stays a click).
  await page.mouse.move(start.x, start.y - 8, { steps: 4 });
  await page.mouse.move(start.x, to.y + to.height / 2 - 4, { steps: 12 });
  await expect(fields.dragHandle("Large")).toHaveAttribute("aria-pressed", "true");
  await page.mouse.up();
  await expect.poll(() => fields.optionLabels("Size")).toEqual(["Large", "Small", "Medium"]);
  await expectOrderKept(page, appId, fields, ["Large", "Small", "Medium"]);
});

test("move an option with the keyboard: Space, arrow, Space", async ({ page }) => {
  const { appId, fields } = await openFields(page, sizes);
  await fields.expand("Size");
  const handle = fields.dragHandle("Small");
  await handle.focus();
  // Each step is announced; waiting for it keeps the keys in step with the drag.
  const said = (template: string, position: number) =>
    page.getByText(fillTemplate(template, { item: "Small", position, total: 3 }), { exact: true });
  await page.keyboard.press("Space");
  // Picked up: the handle is pressed while the item moves.
  await expect(handle).toHaveAttribute("aria-pressed", "true");
  await page.keyboard.press("ArrowDown");
  await expect(said(messages.dndMovedTo, 2)).toBeAttached();
  await page.keyboard.press("ArrowDown");
  await expect(said(messages.dndMovedTo, 3)).toBeAttached();
  await page.keyboard.press("Space");
  await expect(said(messages.dndDropped, 3)).toBeAttached();
  await expect.poll(() => fields.optionLabels("Size")).toEqual(["Medium", "Large", "Small"]);
  await expectOrderKept(page, appId, fields, ["Medium", "Large", "Small"]);
});
