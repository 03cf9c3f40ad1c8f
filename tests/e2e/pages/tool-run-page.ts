import { expect, type Locator, type Page } from "@playwright/test";
import { messages } from "../../../lib/messages";

/** A tool's public page (/app/{appId}, /app/{appId}/tool/{path}) as its users run it. */
export class ToolRunPage {
  readonly mainInput: Locator;
  readonly run: Locator;
  /** The Run button while a run is under way. */
  readonly running: Locator;
  /** The results section: data-run-status says idle, loading, success or error. */
  readonly results: Locator;
  readonly resultsHeading: Locator;
  /** The answer (a live region). */
  readonly answer: Locator;
  readonly cancel: Locator;
  readonly startOver: Locator;
  readonly copy: Locator;
  /** The error of a run, with its way on (sign in...). */
  readonly error: Locator;
  readonly editableResult: Locator;
  readonly forgetAnswers: Locator;

  constructor(
    readonly page: Page,
    readonly appId: string,
    /** The main input's label (the tool's inputLabel). */
    inputLabel: string,
  ) {
    this.mainInput = page.getByRole("textbox", { name: inputLabel, exact: true });
    this.run = page.getByRole("button", { name: messages.publicRun, exact: true });
    this.running = page.getByRole("button", { name: messages.publicRunning, exact: true });
    this.results = page.locator("section[data-run-status]");
    this.resultsHeading = this.results.getByRole("heading", { name: messages.publicResults });
    this.answer = this.results.locator("[aria-live=polite]");
    this.cancel = this.results.getByRole("button", { name: messages.cancel });
    this.startOver = this.results.getByRole("button", { name: messages.publicStartOver });
    this.copy = this.results.getByRole("button", { name: messages.publicCopyResult });
    this.error = this.results.getByRole("alert");
    this.editableResult = this.results.getByLabel(messages.publicResultEditLabel);
    this.forgetAnswers = page.getByRole("button", { name: messages.publicForgetAnswers });
  }

  async goto(path = `/app/${this.appId}`): Promise<void> {
    await this.page.goto(path);
    await expect(this.run).toBeVisible();
  }

  /** A text field by its accessible name (a required field's star is not part of it). */
  field(label: string): Locator {
    return this.page.getByRole("textbox", { name: label, exact: true });
  }

  /** An option chip (multiselect, or select with icons), clicked by its visible label. */
  async pick(option: string): Promise<void> {
    await this.page
      .locator("label")
      .filter({ hasText: new RegExp(`^${option}$`) })
      .click();
  }

  option(option: string): Locator {
    return this.page.getByRole("checkbox", { name: option, exact: true });
  }

  async expectStatus(status: "idle" | "loading" | "success" | "error", timeout?: number): Promise<void> {
    await expect(this.results).toHaveAttribute("data-run-status", status, { timeout });
  }
}
