import "server-only";
import type { App } from "@/db/schema";
import { CHAT_PROGRESS_SAVE_MS } from "@/lib/constants";
import { logError } from "@/lib/log";
import { saveAnswerProgress } from "./chat";
import type { AnswerParts } from "./chat-answer-parts";
import type { AnswerPrompt } from "./chat-answer-prompt";

/**
 * The saves of an answer while it streams, one after the other (never two at once, never out of
 * order): what the prompt holds as soon as the model is called, then what the answer has every
 * few seconds, so it survives a crash and is never taken for stale. A failed save is logged; the
 * answer goes on.
 */
export class AnswerProgress {
  private saving: Promise<void> = Promise.resolve();
  private savedAt = Date.now();

  constructor(
    private readonly app: App,
    private readonly messageId: string,
  ) {}

  /** Stores the prompt's files on the answer: it never waits on the model. */
  recordContext(context: AnswerPrompt["context"]) {
    this.queue(() => saveAnswerProgress(this.app, this.messageId, context), "context files not saved");
  }

  /** Saves the answer's parts when they changed and the last save is a few seconds old. */
  saveSometimes(parts: AnswerParts) {
    if (!parts.dirty || Date.now() - this.savedAt < CHAT_PROGRESS_SAVE_MS) return;
    this.savedAt = Date.now();
    parts.dirty = false;
    parts.refreshActions();
    const progress = { content: parts.prose(), parts: structuredClone(parts.list), actions: parts.actions() };
    this.queue(() => saveAnswerProgress(this.app, this.messageId, progress), "progress not saved");
  }

  /** Once every save asked for so far is done: the answer's end is written after them. */
  settled(): Promise<void> {
    return this.saving;
  }

  private queue(save: () => Promise<unknown>, failure: string) {
    this.saving = this.saving
      .then(save)
      .then(() => {})
      .catch((err) => logError(`space chat: ${failure}`, { messageId: this.messageId, err }));
  }
}
