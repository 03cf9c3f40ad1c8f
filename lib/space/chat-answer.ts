import "server-only";
import { type LanguageModelUsage, streamText } from "ai";
import type { App } from "@/db/schema";
import { describeError } from "@/lib/ai/describe-error";
import { defaultModelId, languageModel } from "@/lib/ai/provider";
import { CHAT_MAX_OUTPUT_TOKENS, CHAT_TIMEOUT_MS, RUN_MODEL_RETRIES } from "@/lib/constants";
import { logError } from "@/lib/log";
import { messages } from "@/lib/messages";
import type { StreamSlot } from "@/lib/realtime/stream-slots";
import { DONE } from "@/lib/runs/stream";
import { fillTemplate } from "@/lib/text";
import { endAnswer, failStreamedAnswer, type StreamedAnswer } from "./chat-answer-end";
import { AnswerParts } from "./chat-answer-parts";
import { AnswerProgress } from "./chat-answer-progress";
import { type AnswerPrompt, answerPrompt } from "./chat-answer-prompt";
import type { ChatImporter } from "./chat-imports";
import { CHAT_MESSAGE_ID_HEADER, type ChatMessageMetadata, type ChatStreamPart } from "./chat-schemas";
import { usageRecord } from "./chat-usage";

// One answer of the space chat, once its message is started: the model call, read as it streams
// into the answer's parts (chat-answer-parts.ts), saved as it goes (chat-answer-progress.ts), and
// ended once (chat-answer-end.ts), whether the model finished, hit its cap, failed or took too
// long, or the builder stopped it (the client went away).

const encoder = new TextEncoder();
const encode = (part: ChatStreamPart) => encoder.encode(`data: ${JSON.stringify(part)}\n\n`);

type StreamPart = {
  type: string;
  text?: string;
  error?: unknown;
  totalUsage?: LanguageModelUsage;
  finishReason?: string;
};

export type AnswerMeta = {
  /** The builder's user id: the creator of the records the answer inserts (as end users' are theirs). */
  creatorId: string;
  userMessageId: string | null;
  removedMessageIds: string[];
  discussMode: boolean;
  continuation: boolean;
  /** Starts the imports of its import_entities actions. */
  startImport?: ChatImporter;
};

export class Answer implements StreamedAnswer {
  private readonly modelId = defaultModelId();
  private readonly abort = new AbortController();
  private abortReason: "client" | "timeout" | null = null;
  private sendPart: (part: ChatStreamPart) => void = () => {};
  private closeStream: () => void = () => {};
  readonly parts: AnswerParts;
  readonly progress: AnswerProgress;
  readonly discussMode: boolean;

  constructor(
    readonly app: App,
    readonly accountId: string,
    readonly messageId: string,
    private readonly meta: AnswerMeta,
  ) {
    this.discussMode = meta.discussMode;
    this.parts = new AnswerParts(messageId, (part) => this.send(part));
    this.progress = new AnswerProgress(app, messageId);
  }

  get creatorId(): string {
    return this.meta.creatorId;
  }

  get startImport(): ChatImporter | undefined {
    return this.meta.startImport;
  }

  /** Sends a part to the client, while its stream is open. */
  send(part: ChatStreamPart) {
    this.sendPart(part);
  }

  /** The answer's stream (the AI SDK's UI message stream); the model is called as it starts. */
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
        this.sendPart = (part) => {
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

  metadata(
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
    let prompt: AnswerPrompt;
    try {
      prompt = await answerPrompt(this.app, this.messageId, this.meta);
    } catch (err) {
      return failStreamedAnswer(this, describeError(err), null, null);
    }
    this.parts.resumedFrom = prompt.resumedFrom;
    const { parser } = prompt;
    // The model is called now: the answer records what its prompt holds whatever happens next, so a
    // failed answer, or one whose server dies, still says which files the model was given.
    this.progress.recordContext(prompt.context);

    let finishReason: string | null = null;
    let usage: LanguageModelUsage | undefined;
    let failure: unknown = null;
    let finished = false;
    try {
      const result = streamText({
        model: languageModel(this.modelId),
        instructions: prompt.instructions,
        messages: prompt.turns,
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
          this.parts.handle(parser.push(part.text));
          this.progress.saveSometimes(this.parts);
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
      return endAnswer(this, parser, cut ? "truncated" : "complete", prompt, record, finishReason ?? "stop");
    }
    if (this.abortReason === "client") return endAnswer(this, parser, "incomplete", prompt, record, "stop");
    if (this.abortReason === "timeout")
      return failStreamedAnswer(this, messages.chatAnswerTimedOut, parser, record, prompt.context);
    const detail = failure ? describeError(failure) : "the model's answer ended without finishing";
    logError("space chat: the model failed", {
      messageId: this.messageId,
      modelId: this.modelId,
      err: failure,
    });
    return failStreamedAnswer(
      this,
      fillTemplate(messages.chatModelFailed, { detail }),
      parser,
      record,
      prompt.context,
    );
  }
}
