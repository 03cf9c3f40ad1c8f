import { expect, type FrameLocator, type Locator, type Page } from "@playwright/test";
import { messages } from "../../../lib/messages";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * /build/app/{appId} of a space app: the App chat (its conversation, composer and dialogs) beside
 * the preview of the current or the previewed version (components/space/chat).
 */
export class SpaceChatPage {
  readonly log: Locator;
  readonly scroller: Locator;
  readonly composer: Locator;
  readonly send: Locator;
  readonly stop: Locator;
  readonly discussMode: Locator;
  readonly loadPrevious: Locator;
  readonly startOfConversation: Locator;
  readonly preview: FrameLocator;
  readonly previewFrame: Locator;
  readonly backToCurrent: Locator;
  readonly ratingDialog: Locator;
  readonly revertDialog: Locator;
  readonly assistantButton: Locator;
  readonly activateDialog: Locator;

  constructor(
    readonly page: Page,
    readonly appId: string,
  ) {
    this.log = page.getByRole("log", { name: messages.chatConversation });
    this.scroller = page.getByTestId("chat-scroller");
    this.composer = page.getByLabel(messages.chatComposerLabel, { exact: true });
    this.send = page.getByRole("button", { name: messages.chatSend, exact: true });
    this.stop = page.getByRole("button", { name: messages.chatStop, exact: true });
    this.discussMode = page.getByRole("switch", { name: messages.chatDiscussMode });
    this.loadPrevious = page.getByRole("button", { name: messages.chatLoadPrevious });
    this.startOfConversation = page.getByText(messages.chatStartOfConversation, { exact: true });
    this.previewFrame = page.getByTestId("version-preview-frame");
    this.preview = page.frameLocator('[data-testid="version-preview-frame"]');
    this.backToCurrent = page.getByRole("button", { name: messages.chatPreviewCurrent });
    this.ratingDialog = page.getByRole("dialog", { name: messages.ratingTitle });
    this.revertDialog = page.getByRole("alertdialog", { name: messages.chatRevertTitle });
    this.assistantButton = page.getByRole("button", { name: messages.chatAssistantButton });
    this.activateDialog = page.getByRole("dialog", { name: messages.chatActivateTitle });
  }

  async goto(query = ""): Promise<void> {
    await this.page.goto(`/build/app/${this.appId}${query}`);
  }

  /** A message of the conversation by its stored id. */
  message(id: string): Locator {
    return this.page.locator(`article[data-message-id="${id}"]`);
  }

  /** The messages of the conversation, in order. */
  get messages(): Locator {
    return this.log.locator("article[data-message-id]");
  }

  /** The assistant's answers (not restore notices), in order. */
  get answers(): Locator {
    return this.log.locator('article[data-role="assistant"][data-kind="message"]');
  }

  /** Whichever answer is the last one when the locator is used. */
  lastAnswer(): Locator {
    return this.answers.last();
  }

  /**
   * Does what makes a new answer (send, 'Let's keep going') and returns that answer, by its id:
   * it stays that answer whatever comes after it.
   */
  async newAnswer(action: () => Promise<void>): Promise<Locator> {
    const before = await this.answers.count();
    await action();
    await expect(this.answers).toHaveCount(before + 1, { timeout: 30_000 });
    // The answer shows under a temporary id until the server's stream names it (its row's uuid).
    const answer = this.answers.nth(before);
    await expect(answer).toHaveAttribute("data-message-id", UUID, { timeout: 30_000 });
    const id = await answer.getAttribute("data-message-id");
    return this.message(id!);
  }

  previewButton(message: Locator): Locator {
    return message.getByRole("button", {
      name: new RegExp(`^(${messages.versionPreview}|${messages.versionPreviewing})$`),
    });
  }

  button(message: Locator, name: string): Locator {
    return message.getByRole("button", { name, exact: true });
  }

  /** Types a message and sends it with Enter. */
  async ask(text: string): Promise<void> {
    // Typed before the page is hydrated, a message is lost (nothing sends it, and hydration empties
    // the box): type until the page holds it, which wakes its Send button, then send.
    await expect(async () => {
      await this.composer.fill(text);
      await expect(this.send).not.toHaveAttribute("disabled", { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await this.composer.press("Enter");
  }

  /** The heading of the app in the preview frame. */
  previewHeading(): Locator {
    return this.preview.getByRole("heading", { level: 1 });
  }

  async expectPreviewHeading(text: string): Promise<void> {
    await expect(this.previewHeading()).toHaveText(text, { timeout: 30_000 });
  }
}
