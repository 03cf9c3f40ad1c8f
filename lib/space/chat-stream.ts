import "server-only";
import { type LanguageModelUsage, streamText } from "ai";
import { listChatPage } from "@/db/queries/space-chat";
import type { App, ChatMessage } from "@/db/schema";
import { describeError } from "@/lib/ai/describe-error";
import { reserveModelCall } from "@/lib/ai/model-budget";
import { defaultModelId, languageModel, modelEndpoint } from "@/lib/ai/provider";
import type { Session } from "@/lib/auth/session";
import {
  CHAT_MAX_OUTPUT_TOKENS,
  CHAT_PROGRESS_SAVE_MS,
  CHAT_TIMEOUT_MS,
  RUN_MODEL_RETRIES,
  SPACE_PROMPT_HISTORY_MESSAGES,
} from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { logError } from "@/lib/log";
import { messages } from "@/lib/messages";
import { type StreamSlot, takeStreamSlot } from "@/lib/realtime/stream-slots";
import { DONE } from "@/lib/runs/stream";
import { fillTemplate } from "@/lib/text";
import { ActionParser, type ParsedAction, type ParserEvent } from "./action-parser";
import {
  assistantInstructions,
  CONTINUE_INSTRUCTION,
  conversation,
  type PromptTurn,
  promptContext,
  selectPromptFiles,
} from "./assistant-prompt";
import { failAnswer, finishAnswer, type NewUserMessage, saveAnswerProgress, startExchange } from "./chat";
import { answerText, chatActionOf, fileChangeOf, mergeContinuation } from "./chat-actions";
import {
  CHAT_MESSAGE_ID_HEADER,
  type ChatAction,
  type ChatMessageMetadata,
  type ChatPart,
  type ChatSendBody,
  type ChatStreamPart,
  type ChatUsage,
} from "./chat-schemas";
import { usageRecord } from "./chat-usage";
import { assertSpaceApp, currentTree } from "./commit";
import { type RecordBatch, recordsOfAction } from "./entity-records";
import { entityNameOf } from "./files";
import { prepareRetry } from "./restore";
import type { FileChange } from "./schemas";
import { readCurrentFiles } from "./versions";

// POST /api/apps/{appId}/chat: the chat assistant answers the builder, writing the app's files as it
// goes. Everything that can refuse the request does so
// before the stream starts, as a JSON error: the body, a retry that is not of the last message, a
// continue with nothing cut off, a chat busy with another answer (409 CHAT_BUSY, another tab), no model
// configured. Then the answer streams at once, as the AI SDK's UI message stream: prose as text parts,
// each action as a `data-action` part updated in place, the version the answer made. However it ends,
// it is stored once:
// - complete: the model finished; its complete file actions become ONE version annotated on it;
// - truncated: the model hit its output cap (or left an action open); the complete actions before
//   the cut are applied, the cut one is kept for 'Let's keep going', which resumes it;
// - incomplete: the builder stopped it (the client went away): the model call is aborted, the
//   complete actions are applied, the open one never;
// - failed: the model failed, took too long, or an action could not be applied: nothing is applied.

type Ctx = { app: App; session: Session; body: ChatSendBody; signal: AbortSignal };

const encoder = new TextEncoder();
const encode = (part: ChatStreamPart) => encoder.encode(`data: ${JSON.stringify(part)}\n\n`);

/** Answer updates of an action streaming at most this often (each carries the whole content so far). */
const ACTION_UPDATE_MS = 150;
const ACTION_UPDATE_CHARS = 2048;

type Plan = {
  instructions: string;
  turns: PromptTurn[];
  parser: ActionParser;
  userRequest: string;
  /** The action a continuation resumes. */
  resumedFrom?: ChatAction["resumedFrom"];
  /** The files put in the prompt, recorded on the answer (contextFiles / contextMetadata). */
  context: ReturnType<typeof promptContext>;
};

export async function streamChat({ app, session, body, signal }: Ctx): Promise<Response> {
  assertSpaceApp(app);
  if (!modelEndpoint()) throw new AppError("NOT_CONFIGURED", "aiNotConfigured");
  const accountId = session.account!.accountId;

  let removedMessageIds: string[] = [];
  let discussMode = body.discussMode ?? false;
  let user: NewUserMessage | undefined;
  if (body.retryMessageId) {
    const prepared = await prepareRetry(app, body.retryMessageId);
    removedMessageIds = prepared.removedMessageIds;
    discussMode = prepared.message.annotations[0].discussModeMetadata.isDiscussMode;
  } else if (body.continue) {
    const [last] = await listChatPage(app.id, null, 1);
    if (last?.role !== "assistant" || last.kind !== "message" || last.status !== "truncated") {
      throw new AppError("BAD_REQUEST", "chatNothingToContinue", "NOTHING_TO_CONTINUE");
    }
    discussMode = last.discussMode;
  } else {
    const text = body.text!;
    user = { content: text, parts: [{ type: "text", text }] };
  }
  // One of the account's stream slots (429 over the cap), taken before the answer is started so a
  // refusal leaves the chat as it was; the answer gives it back when its stream ends.
  const slot = takeStreamSlot(accountId);
  try {
    // 429 once the builder's model budget is spent; the point comes back when the chat was busy.
    const budget = await reserveModelCall(session);
    let exchange: Awaited<ReturnType<typeof startExchange>>;
    try {
      // 409 CHAT_BUSY here when another answer of the app is being written.
      exchange = await startExchange(app, accountId, { user, discussMode });
    } catch (err) {
      await budget.giveBack();
      throw err;
    }
    const answer = new Answer(app, accountId, exchange.answer.id, {
      userMessageId: exchange.userMessage?.id ?? null,
      removedMessageIds,
      discussMode,
      continuation: body.continue === true,
    });
    return answer.respond(signal, slot);
  } catch (err) {
    slot.release();
    throw err;
  }
}

/** One answer: the model call, the stream to the client, and the message's end. */
class Answer {
  private readonly modelId = defaultModelId();
  private readonly abort = new AbortController();
  private abortReason: "client" | "timeout" | null = null;
  private send: (part: ChatStreamPart) => void = () => {};
  private closeStream: () => void = () => {};
  /** The answer's parts in order, as stored (the same objects the stream reports). */
  private readonly parts: ChatPart[] = [];
  private readonly partOf = new Map<ParsedAction, Extract<ChatPart, { type: "data-action" }>>();
  private readonly sentAt = new Map<ParsedAction, { at: number; length: number }>();
  private textPart: { id: string; part: Extract<ChatPart, { type: "text" }> } | null = null;
  private textCount = 0;
  private resumedFrom: ChatAction["resumedFrom"];
  private saving: Promise<void> = Promise.resolve();
  private savedAt = Date.now();
  private dirty = false;

  constructor(
    private readonly app: App,
    private readonly accountId: string,
    private readonly messageId: string,
    private readonly meta: {
      userMessageId: string | null;
      removedMessageIds: string[];
      discussMode: boolean;
      continuation: boolean;
    },
  ) {}

  respond(signal: AbortSignal, slot: StreamSlot): Response {
    const stop = (reason: "client" | "timeout") => {
      if (this.abort.signal.aborted) return;
      this.abortReason = reason;
      this.abort.abort(
        new Error(reason === "client" ? "the builder stopped the answer" : "the answer took too long"),
      );
    };
    const onClientGone = () => stop("client");
    if (signal.aborted) onClientGone();
    else signal.addEventListener("abort", onClientGone, { once: true });
    const timer = setTimeout(() => stop("timeout"), CHAT_TIMEOUT_MS);

    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.send = (part) => {
          try {
            controller.enqueue(encode(part));
          } catch {
            // The client is gone: the answer is being stopped.
          }
        };
        this.closeStream = () => {
          try {
            controller.enqueue(DONE);
            controller.close();
          } catch {
            // already closed by a cancel
          }
        };
        this.send({ type: "start", messageId: this.messageId, messageMetadata: this.metadata("streaming") });
        void this.run()
          .catch((err) =>
            logError("space chat: the answer could not end", { messageId: this.messageId, err }),
          )
          .finally(() => {
            slot.release();
            clearTimeout(timer);
            signal.removeEventListener("abort", onClientGone);
            this.closeStream();
          });
      },
      cancel: () => stop("client"),
    });
    return new Response(body, {
      status: 200,
      headers: {
        "content-type": "text/event-stream",
        "cache-control": "no-cache, no-transform",
        "x-accel-buffering": "no",
        "x-vercel-ai-ui-message-stream": "v1",
        [CHAT_MESSAGE_ID_HEADER]: this.messageId,
      },
    });
  }

  private metadata(
    status: ChatMessageMetadata["status"],
    extra: Partial<Pick<ChatMessageMetadata, "versionId" | "usage" | "error">> = {},
  ): ChatMessageMetadata {
    return {
      messageId: this.messageId,
      userMessageId: this.meta.userMessageId,
      removedMessageIds: this.meta.removedMessageIds,
      status,
      versionId: null,
      discussMode: this.meta.discussMode,
      ...extra,
    };
  }

  private async run(): Promise<void> {
    let plan: Plan;
    try {
      plan = await this.plan();
    } catch (err) {
      return this.fail(describeError(err), null, null);
    }
    this.resumedFrom = plan.resumedFrom;
    const { parser } = plan;
    // The model is called now: the answer records what its prompt holds whatever happens next, so a
    // failed answer, or one whose server dies, still says which files the model was given.
    this.recordContext(plan.context);

    let finishReason: string | null = null;
    let usage: LanguageModelUsage | undefined;
    let failure: unknown = null;
    let finished = false;
    try {
      const result = streamText({
        model: languageModel(this.modelId),
        instructions: plan.instructions,
        messages: plan.turns,
        maxOutputTokens: CHAT_MAX_OUTPUT_TOKENS,
        maxRetries: RUN_MODEL_RETRIES,
        abortSignal: this.abort.signal,
        // Failures are recorded on the message and logged here, once.
        onError: () => {},
      });
      for await (const part of result.stream as AsyncIterable<StreamPart>) {
        if (part.type === "abort") break;
        if (part.type === "error") {
          failure = part.error;
          break;
        }
        if (part.type === "text-delta" && part.text) {
          this.handle(parser.push(part.text));
          this.saveSometimes();
        } else if (part.type === "finish") {
          finishReason = part.finishReason ?? "stop";
          usage = part.totalUsage;
          finished = true;
        }
      }
    } catch (err) {
      failure = err;
    }

    const record = usageRecord(this.modelId, usage, finishReason);
    if (finished && !failure) {
      const cut = parser.open !== null || finishReason === "length";
      return this.end(parser, cut ? "truncated" : "complete", plan, record, finishReason ?? "stop");
    }
    if (this.abortReason === "client") return this.end(parser, "incomplete", plan, record, "stop");
    if (this.abortReason === "timeout")
      return this.fail(messages.chatAnswerTimedOut, parser, record, plan.context);
    const detail = failure ? describeError(failure) : "the model's answer ended without finishing";
    logError("space chat: the model failed", {
      messageId: this.messageId,
      modelId: this.modelId,
      err: failure,
    });
    return this.fail(fillTemplate(messages.chatModelFailed, { detail }), parser, record, plan.context);
  }

  /** What the model is asked, from the conversation and the app's files as they are now (the chat is ours). */
  private async plan(): Promise<Plan> {
    const rows = (await listChatPage(this.app.id, null, SPACE_PROMPT_HISTORY_MESSAGES + 1))
      .filter((m) => m.id !== this.messageId)
      .reverse();
    const files = (await readCurrentFiles(this.app)).map((f) => ({ path: f.path, content: f.content }));
    const instructions = assistantInstructions({
      appName: this.app.header || "Untitled app",
      files,
      discussMode: this.meta.discussMode,
    });
    const context = promptContext(selectPromptFiles(files));
    const turn = (m: ChatMessage): PromptTurn =>
      m.role === "user"
        ? { role: "user", content: m.content }
        : {
            role: "assistant",
            content: [answerText(partsOf(m), "summary"), STATUS_NOTES[m.status]].filter(Boolean).join("\n"),
          };

    if (!this.meta.continuation) {
      const last = rows.at(-1);
      if (last?.role !== "user") throw new Error("the message to answer is not the last one");
      return {
        instructions,
        context,
        turns: conversation(rows.map(turn)),
        parser: new ActionParser({ discussMode: this.meta.discussMode }),
        userRequest: last.content,
      };
    }
    // 'Let's keep going': the cut answer and the continuations after it are one answer to go on from.
    let start = rows.length;
    while (start > 0) {
      const m = rows[start - 1]!;
      if (m.role !== "assistant" || m.kind !== "message" || m.status !== "truncated") break;
      start--;
    }
    const chain = rows.slice(start);
    if (chain.length === 0) throw new Error("there is no cut-off answer to continue");
    const merged = mergeContinuation(chain.map(partsOf));
    const written = answerText(merged, "full");
    const last = merged.at(-1);
    const request = rows
      .slice(0, start)
      .reverse()
      .find((m) => m.role === "user");
    return {
      instructions,
      context,
      turns: [
        ...conversation(rows.slice(0, start).map(turn)),
        { role: "assistant", content: written },
        { role: "user", content: CONTINUE_INSTRUCTION },
      ],
      parser: ActionParser.resume(written, { discussMode: this.meta.discussMode }),
      userRequest: request?.content ?? "",
      resumedFrom:
        last?.type === "data-action" && last.data.isTruncated
          ? { messageId: chain.at(-1)!.id, actionId: last.data.id }
          : undefined,
    };
  }

  /** Reports what the parser read, as stream parts. */
  private handle(events: ParserEvent[]) {
    for (const e of events) {
      if (e.type === "text") {
        if (!this.textPart) {
          // A new stretch of prose starts at its first visible character.
          const text = e.text.replace(/^\s+/, "");
          if (!text) continue;
          const part = { type: "text" as const, text: "" };
          this.textPart = { id: `text-${this.textCount++}`, part };
          this.parts.push(part);
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
        this.parts.push(part);
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

  private textDelta(delta: string) {
    this.textPart!.part.text += delta;
    this.send({ type: "text-delta", id: this.textPart!.id, delta });
    this.dirty = true;
  }

  private closeText() {
    if (!this.textPart) return;
    this.send({ type: "text-end", id: this.textPart.id });
    this.textPart = null;
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

  /** Brings every action's stored data up to its content (updates are throttled). */
  private refreshActions() {
    for (const [a, part] of this.partOf) {
      if (part.data.content.length !== a.content.length || part.data.status !== a.status) {
        part.data = this.actionData(a);
      }
    }
  }

  private actions(): ChatAction[] {
    return this.parts.flatMap((p) => (p.type === "data-action" ? [p.data] : []));
  }

  private prose(): string {
    return this.parts
      .flatMap((p) => (p.type === "text" && p.text.trim() ? [p.text.trim()] : []))
      .join("\n\n");
  }

  /** Saves what the answer has every few seconds: survives a crash, and is never taken for stale. */
  private saveSometimes() {
    if (!this.dirty || Date.now() - this.savedAt < CHAT_PROGRESS_SAVE_MS) return;
    this.savedAt = Date.now();
    this.dirty = false;
    this.refreshActions();
    const progress = { content: this.prose(), parts: structuredClone(this.parts), actions: this.actions() };
    this.saving = this.saving
      .then(() => saveAnswerProgress(this.app, this.messageId, progress))
      .catch((err) => logError("space chat: progress not saved", { messageId: this.messageId, err }));
  }

  /** The answer ended whole, cut by the output cap, or stopped by the builder: stored, its complete changes applied. */
  private async end(
    parser: ActionParser,
    status: "complete" | "truncated" | "incomplete",
    plan: Plan,
    usage: ChatUsage,
    finishReason: string,
  ) {
    this.handle(parser.finish());
    this.closeText();
    if (status === "incomplete") {
      // The action being written when the builder stopped is neither complete nor cut by the model.
      for (const [a, part] of this.partOf) {
        if (a.status === "truncated") part.data = this.actionData(a, "incomplete");
      }
    } else {
      this.refreshActions();
    }
    await this.saving;

    const changes: FileChange[] = [];
    const records: RecordBatch[] = [];
    const applied = new Set<string>();
    try {
      if (!this.meta.discussMode) {
        for (const action of this.actions()) {
          const change = fileChangeOf(action);
          if (change) {
            changes.push(change);
            applied.add(action.id);
          }
        }
        for (const batch of await this.recordBatches(changes)) {
          records.push(batch);
          applied.add(batch.actionId);
        }
      }
    } catch (err) {
      return this.fail(describeError(err), null, usage, plan.context);
    }
    const stored = this.parts.map((p) =>
      p.type === "data-action" && applied.has(p.id) ? { ...p, data: { ...p.data, applied: true } } : p,
    );
    let done: Awaited<ReturnType<typeof finishAnswer>>;
    try {
      done = await finishAnswer(this.app, this.accountId, this.messageId, {
        status,
        content: this.prose(),
        parts: stored,
        actions: stored.flatMap((p) => (p.type === "data-action" ? [p.data] : [])),
        usage,
        changes,
        records,
        userRequest: plan.userRequest,
        description: versionDescription(this.prose()),
        ...plan.context,
      });
    } catch (err) {
      // A change that cannot apply (a partial edit whose part is not there): nothing is applied.
      return this.fail(describeError(err), null, usage, plan.context);
    }
    for (const p of stored) {
      if (p.type === "data-action" && applied.has(p.id))
        this.send({ type: "data-action", id: p.id, data: p.data });
    }
    const versionId = done.version?.id ?? null;
    if (done.version) this.send({ type: "data-version", id: done.version.id, data: done.version });
    this.send({
      type: "finish",
      finishReason,
      messageMetadata: this.metadata(status, { versionId, usage }),
    });
  }

  /**
   * The records of the answer's complete insert_entity_records actions, for an entity the app has
   * or this answer adds; an action whose records cannot be stored (see recordsOfAction), or that
   * names no such entity, stays stored with the message only (Not applied).
   */
  private async recordBatches(changes: FileChange[]): Promise<RecordBatch[]> {
    const inserts = this.actions().filter(
      (a) => a.type === "insert_entity_records" && a.status === "complete" && a.name,
    );
    if (inserts.length === 0) return [];
    // The paths of the current version are enough: no file's content is read.
    const names = new Set([...(await currentTree(this.app.id)).keys()].flatMap((p) => entityNameOf(p) ?? []));
    for (const c of changes) if (c.type === "add_entity" || c.type === "edit_entity") names.add(c.name);
    names.delete("User");
    return inserts.flatMap((a) => {
      const rows = names.has(a.name!) ? recordsOfAction(a.data, this.accountId) : null;
      return rows ? [{ actionId: a.id, entity: a.name!, records: rows }] : [];
    });
  }

  /** Stores the prompt's files on the answer (the progress chain: it never waits on the model). */
  private recordContext(context: Plan["context"]) {
    this.saving = this.saving
      .then(() => saveAnswerProgress(this.app, this.messageId, context))
      .catch((err) => logError("space chat: context files not saved", { messageId: this.messageId, err }));
  }

  /**
   * The answer failed: stored as failed with its cause, nothing of it applied; the client is told.
   * `context`: the files of its prompt when the model was called (none when it failed before).
   */
  private async fail(
    error: string,
    parser: ActionParser | null,
    usage: ChatUsage | null,
    context: Plan["context"] | null = null,
  ) {
    if (parser) this.handle(parser.finish());
    this.closeText();
    this.refreshActions();
    await this.saving;
    try {
      await saveAnswerProgress(this.app, this.messageId, {
        content: this.prose(),
        parts: this.parts,
        actions: this.actions(),
      });
      await failAnswer(this.app, this.messageId, { error, content: this.prose(), usage, ...context });
    } catch (err) {
      logError("space chat: the failed answer could not be stored", { messageId: this.messageId, err });
      // What it wrote cannot be stored: it still ends now, failed with its cause alone, so the chat
      // takes the next message at once instead of staying busy until the stale-answer check.
      await failAnswer(this.app, this.messageId, { error }).catch((err2) =>
        logError("space chat: the answer could not be failed", { messageId: this.messageId, err: err2 }),
      );
    }
    this.send({ type: "message-metadata", messageMetadata: this.metadata("failed", { usage, error }) });
    this.send({ type: "error", errorText: messages.chatAssistantFailed });
  }
}

type StreamPart = {
  type: string;
  text?: string;
  error?: unknown;
  totalUsage?: LanguageModelUsage;
  finishReason?: string;
};

/** How an earlier answer ended, for the model (it sees a stopped or failed answer did not happen). */
const STATUS_NOTES: Record<ChatMessage["status"], string> = {
  streaming: "",
  complete: "",
  truncated: "[This answer was cut off: it was too long.]",
  incomplete: "[The builder stopped this answer: only its complete actions were applied.]",
  failed: "[This answer failed: none of its actions were applied.]",
};

function partsOf(m: ChatMessage): ChatPart[] {
  const parts = (m.parts ?? []) as ChatPart[];
  if (parts.length > 0) return parts;
  return m.content ? [{ type: "text", text: m.content }] : [];
}

/** A version's description: the first sentence or line of the answer's prose. */
function versionDescription(prose: string): string {
  const first = prose.split(/\n|(?<=[.!?])\s/)[0]?.trim() ?? "";
  return first.length > 200 ? `${first.slice(0, 199)}…` : first;
}
