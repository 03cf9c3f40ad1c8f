import { expect, type Locator, type Page } from "@playwright/test";
import { messages } from "../../../lib/messages";
import { fillTemplate } from "../../../lib/text";

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The editor's Custom fields panel (?panel=fields): the add form, the fields, their options. */
export class FieldsPanel {
  readonly heading: Locator;
  readonly addForm: Locator;
  readonly name: Locator;
  readonly type: Locator;
  readonly add: Locator;
  readonly magicCreate: Locator;
  readonly list: Locator;
  readonly stepsSwitch: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 2, name: messages.fieldsTitle });
    this.addForm = page.getByRole("form", { name: messages.fieldAddTitle });
    this.name = this.addForm.getByLabel(messages.fieldAddName, { exact: true });
    this.type = this.addForm.getByRole("combobox", { name: messages.fieldAddType });
    this.add = this.addForm.getByRole("button", { name: messages.fieldAdd, exact: true });
    this.magicCreate = this.addForm.getByRole("button", { name: messages.fieldMagicCreate });
    this.list = page.getByRole("region", { name: messages.fieldsListLabel });
    this.stepsSwitch = page.getByRole("switch", { name: messages.stepsSwitch });
  }

  async ready(): Promise<void> {
    await expect(this.heading).toBeVisible();
  }

  /** The add form's message (a refused name, the plan's limit). */
  addError(): Locator {
    return this.addForm.getByRole("alert");
  }

  /** Picks a type in a type list (the add form's by default); the option's name starts with the type. */
  async pickType(typeLabel: string, combobox: Locator = this.type): Promise<void> {
    await combobox.click();
    await this.page.getByRole("option", { name: new RegExp(`^${escapeRegExp(typeLabel)}`) }).click();
  }

  /** Adds a field by hand: the typed text becomes its label, its name the snake_case of it. */
  async addField(typed: string, typeLabel?: string): Promise<void> {
    await this.name.fill(typed);
    if (typeLabel) await this.pickType(typeLabel);
    await this.add.click();
  }

  /** One field's card, by its label. */
  card(label: string): Locator {
    return this.list.getByRole("listitem").filter({
      has: this.page.getByRole("button", {
        name: fillTemplate(messages.fieldDelete, { label }),
        exact: true,
      }),
    });
  }

  /** The labels of the fields, in their order. */
  fieldLabels(): Locator {
    return this.list.getByRole("button", { name: new RegExp(`^${escapeRegExp(messages.fieldEdit)} `) });
  }

  /** Opens a field's details (the summary row's button). */
  async expand(label: string): Promise<void> {
    const toggle = this.card(label).getByRole("button", {
      name: new RegExp(`^${escapeRegExp(messages.fieldEdit)} ${escapeRegExp(label)}`),
    });
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
  }

  deleteButton(label: string): Locator {
    return this.card(label).getByRole("button", {
      name: fillTemplate(messages.fieldDelete, { label }),
      exact: true,
    });
  }

  // ---- options of a select / multiselect field (its details open) ----

  options(fieldLabel: string): Locator {
    return this.page.getByRole("list", {
      name: fillTemplate(messages.fieldOptionsListLabel, { label: fieldLabel }),
    });
  }

  /** The options' labels in their order. */
  async optionLabels(fieldLabel: string): Promise<string[]> {
    return this.options(fieldLabel)
      .getByRole("button", {
        name: new RegExp(`^${escapeRegExp(messages.fieldOptionEdit.replace("{label}", ""))}`),
      })
      .allInnerTexts();
  }

  newOption(fieldLabel: string): Locator {
    return this.card(fieldLabel).getByLabel(messages.fieldOptionNew, { exact: true });
  }

  addOption(fieldLabel: string): Locator {
    return this.card(fieldLabel).getByRole("button", { name: messages.fieldOptionAdd });
  }

  optionError(fieldLabel: string): Locator {
    return this.card(fieldLabel).getByRole("alert");
  }

  dragHandle(label: string): Locator {
    return this.page.getByRole("button", { name: fillTemplate(messages.dragHandle, { label }), exact: true });
  }
}
