import "server-only";
import type { ParsedAction, ParserEvent } from "./action-parser";
import { chatActionOf } from "./chat-actions";
import type { ChatAction, ChatPart, ChatStreamPart } from "./chat-schemas";

// The parts an answer of the space chat is made of, as the parser reads them from the model's
// text: prose as text parts, each action as a `data-action` part updated in place. Each change is
// sent to the client as a stream part at once (an action's growing content at most every
// ACTION_UPDATE_MS or ACTION_UPDATE_CHARS), and the same objects are what the message stores.

/** Answer updates of an action streaming at most this often (each carries the whole content so far). */
const ACTION_UPDATE_MS = 150;
const ACTION_UPDATE_CHARS = 2048;

type ActionPart = Extract<ChatPart, { type: "data-action" }>;

export class AnswerParts {
  /** The answer's parts in order, as stored (the same objects the stream reports). */
  readonly list: ChatPart[] = [];
  /** Whether the parts changed since the last progress save. */
  dirty = false;
  /** The action a continuation resumes: its resumed part points back at it. */
  resumedFrom: ChatAction["resumedFrom"];
  private readonly partOf = new Map<ParsedAction, ActionPart>();
  private readonly sentAt = new Map<ParsedAction, { at: number; length: number }>();
  private textPart: { id: string; part: Extract<ChatPart, { type: "text" }> } | null = null;
  private textCount = 0;

  constructor(
    private readonly messageId: string,
    private readonly send: (part: ChatStreamPart) => void,
  ) {}

  /** Reports what the parser read, as stream parts. */
  handle(events: ParserEvent[]) {
    for (const e of events) {
      if (e.type === "text") {
        if (!this.textPart) {
          // A new stretch of prose starts at its first visible character.
          const text = e.text.replace(/^\s+/, "");
          if (!text) continue;
          const part = { type: "text" as const, text: "" };
          this.textPart = { id: `text-${this.textCount++}`, part };
          this.list.push(part);
          this.send({ type: "text-start", id: this.textPart.id });
          this.textDelta(text);
        } else {
          this.textDelta(e.text);
        }
        continue;
      }
      const a = e.action;
      if (e.type === "action-start") {
        this.closeText();
        const part = { type: "data-action" as const, id: "", data: this.actionData(a) };
        part.id = part.data.id;
        this.partOf.set(a, part);
        this.list.push(part);
        this.sendAction(a);
      } else if (e.type === "action-end") {
        this.sendAction(a);
      } else {
        const last = this.sentAt.get(a);
        if (
          !last ||
          Date.now() - last.at >= ACTION_UPDATE_MS ||
          a.content.length - last.length >= ACTION_UPDATE_CHARS
        ) {
          this.sendAction(a);
        }
      }
      this.dirty = true;
    }
  }

  /** Ends the stretch of prose being written, if any. */
  closeText() {
    if (!this.textPart) return;
    this.send({ type: "text-end", id: this.textPart.id });
    this.textPart = null;
  }

  /** Brings every action's stored data up to its content (updates are throttled). */
  refreshActions() {
    for (const [a, part] of this.partOf) {
      if (part.data.content.length !== a.content.length || part.data.status !== a.status) {
        part.data = this.actionData(a);
      }
    }
  }

  /** The builder stopped the answer: the action being written is neither complete nor cut by the model. */
  markStopped() {
    for (const [a, part] of this.partOf) {
      if (a.status === "truncated") part.data = this.actionData(a, "incomplete");
    }
  }

  actions(): ChatAction[] {
    return this.list.flatMap((p) => (p.type === "data-action" ? [p.data] : []));
  }

  prose(): string {
    return this.list.flatMap((p) => (p.type === "text" && p.text.trim() ? [p.text.trim()] : [])).join("\n\n");
  }

  private textDelta(delta: string) {
    this.textPart!.part.text += delta;
    this.send({ type: "text-delta", id: this.textPart!.id, delta });
    this.dirty = true;
  }

  private actionData(a: ParsedAction, status?: ChatAction["status"]): ChatAction {
    return chatActionOf(this.messageId, a, {
      status,
      resumedFrom: a.resumed ? this.resumedFrom : undefined,
    });
  }

  private sendAction(a: ParsedAction, status?: ChatAction["status"]) {
    const part = this.partOf.get(a);
    if (!part) return;
    part.data = this.actionData(a, status);
    this.sentAt.set(a, { at: Date.now(), length: a.content.length });
    this.send({ type: "data-action", id: part.id, data: part.data });
  }
}
