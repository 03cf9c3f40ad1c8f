import { messages } from "@/lib/messages";
import type { ChatMessageView, MessageAnnotation } from "@/lib/space/views";
import { fillTemplate } from "@/lib/text";

type ChatMessageStatus = MessageAnnotation["status"];

// What the chat says about an answer once it ended, free of React so it can be tested: the
// admins' token line under it, and the status line screen readers hear.

const count = (n: unknown) => (typeof n === "number" && Number.isFinite(n) ? n : null);

/**
 * "token usage summary" (admins only): tokens in and out, cost, model, finish reason. Only
 * for an answer the model reported its usage of: a failed or stopped answer has no counts, and
 * a line of question marks would say nothing.
 */
export function usageLine(message: ChatMessageView): string | null {
  const { status, usage } = message.annotations[0];
  if (!usage || status === "failed" || status === "streaming") return null;
  const total = count(usage.totalTokens);
  const prompt = count(usage.promptTokens);
  const completion = count(usage.completionTokens);
  if (total === null || prompt === null || completion === null) return null;
  const cost =
    usage.costKnown === false || typeof usage.totalCost !== "number"
      ? messages.chatUsageCostUnknown
      : `$${usage.totalCost.toFixed(4)}`;
  const model = (usage.modelInfo as { model?: unknown } | undefined)?.model;
  const finish = usage.finishReason;
  const line = fillTemplate(messages.chatUsageTokens, {
    total: total.toLocaleString(),
    prompt: prompt.toLocaleString(),
    completion: completion.toLocaleString(),
    cost,
  });
  return [line, typeof model === "string" ? model : null, typeof finish === "string" ? finish : null]
    .filter(Boolean)
    .join(" · ");
}

/**
 * The status line announced when an answer has ended: answered, failed, stopped (by Stop, or
 * stored as incomplete) or cut off. `stopped` is true when the builder pressed Stop, which the
 * stored answer may not say yet.
 */
export function answerEndAnnouncement(status: ChatMessageStatus | null, stopped: boolean): string {
  if (status === "failed") return messages.chatAnswerFailedAnnounce;
  if (stopped || status === "incomplete") return messages.chatAnswerStoppedAnnounce;
  if (status === "truncated") return messages.chatTruncatedNote;
  return messages.chatAnswerDone;
}

/** The status of the last answer of the conversation, or null when it has none. */
export function lastAnswerStatus(conversation: readonly ChatMessageView[]): ChatMessageStatus | null {
  const answer = conversation.findLast((m) => m.role === "assistant" && m.kind === "message");
  return answer ? answer.annotations[0].status : null;
}
