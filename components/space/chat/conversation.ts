import type { ChatAction } from "@/lib/space/chat-schemas";
import type { ChatMessageView } from "@/lib/space/views";

// The rules the chat view reads off its list of messages, free of React so they can be tested:
// which version is the app's current one, which message a retry or an undo applies to, how many
// messages a revert takes away, and how pages of history join.

/**
 * One chat action as an answer carries it (lib/space/chat-schemas.ts). Answers written
 * before the stream existed (the demo seed) carry only title, type, file, content, isComplete and
 * isTruncated, so everything but the type is optional here.
 */
export type ShownAction = Partial<ChatAction> & { type: string };

export const annotation = (m: ChatMessageView) => m.annotations[0];

/** The actions of an answer, skipping anything that is not one. */
export function actionsOf(m: ChatMessageView): ShownAction[] {
  return m.actions.filter(
    (a): a is ShownAction =>
      typeof a === "object" && a !== null && typeof (a as { type?: unknown }).type === "string",
  );
}

/**
 * The app's current version as the conversation shows it: the version of the last message that
 * made one. A revert or a retry takes the later messages away, a restore or an undo adds a
 * message with the new version, so the last annotated message always holds the current one.
 */
export function currentVersionId(messages: readonly ChatMessageView[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const id = annotation(messages[i]!).versionId;
    if (id) return id;
  }
  return null;
}

/** The messages after `messageId`: what a revert to its version removes. */
export function countLaterMessages(messages: readonly ChatMessageView[], messageId: string): number {
  const i = messages.findIndex((m) => m.id === messageId);
  return i < 0 ? 0 : messages.length - i - 1;
}

/** "Retry works only on the last user message". */
export function lastUserMessageId(messages: readonly ChatMessageView[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === "user") return messages[i]!.id;
  }
  return null;
}

/**
 * The user message a failed or cut answer answers: the closest user message before it. A retry
 * from an answer retries that message.
 */
export function questionOf(messages: readonly ChatMessageView[], answerId: string): string | null {
  const i = messages.findIndex((m) => m.id === answerId);
  for (let j = i - 1; j >= 0; j--) {
    if (messages[j]!.role === "user") return messages[j]!.id;
  }
  return null;
}

/**
 * A restore can be undone while its version is still the app's current one and no undo of it
 * exists (the server refuses otherwise: ALREADY_UNDONE, RESTORE_STALE).
 */
export function canUndoRestore(messages: readonly ChatMessageView[], m: ChatMessageView): boolean {
  if (m.kind !== "restore") return false;
  const { versionId } = annotation(m);
  if (!versionId || versionId !== currentVersionId(messages)) return false;
  return !messages.some(
    (other) =>
      other.kind === "undo_restore" && annotation(other).systemActionInfo?.revertedFromMessageId === m.id,
  );
}

/** Joins an earlier page before the loaded messages, dropping any message already there. */
export function prependPage(
  loaded: readonly ChatMessageView[],
  earlier: readonly ChatMessageView[],
): ChatMessageView[] {
  const known = new Set(loaded.map((m) => m.id));
  return [...earlier.filter((m) => !known.has(m.id)), ...loaded];
}

/** Puts messages in the list: a known id is replaced in place, a new one appended. */
export function upsertMessages(
  loaded: readonly ChatMessageView[],
  incoming: readonly ChatMessageView[],
): ChatMessageView[] {
  const next = [...loaded];
  for (const m of incoming) {
    const i = next.findIndex((x) => x.id === m.id);
    if (i >= 0) next[i] = m;
    else next.push(m);
  }
  return next;
}

export type Segment = { kind: "text"; text: string } | { kind: "action"; key: string; action: ShownAction };

/**
 * What an answer shows, in the order it was written: its prose and its actions interleaved as
 * the stream sent them (the stored `parts`), or, for a message stored without parts, its text
 * followed by its actions.
 */
export function segmentsOf(m: ChatMessageView): Segment[] {
  const segments: Segment[] = [];
  for (const [i, part] of m.parts.entries()) {
    if (typeof part !== "object" || part === null) continue;
    const p = part as { type?: unknown; text?: unknown; id?: unknown; data?: unknown };
    if (p.type === "text" && typeof p.text === "string" && p.text.trim()) {
      segments.push({ kind: "text", text: p.text });
    } else if (p.type === "data-action" && typeof p.data === "object" && p.data !== null) {
      const action = p.data as ShownAction;
      if (typeof action.type === "string")
        segments.push({ kind: "action", key: typeof p.id === "string" ? p.id : `part-${i}`, action });
    }
  }
  if (segments.length > 0) return segments;
  if (m.content.trim()) segments.push({ kind: "text", text: m.content });
  for (const [i, action] of actionsOf(m).entries()) {
    segments.push({ kind: "action", key: action.id ?? `action-${i}`, action });
  }
  return segments;
}

/** "Chat actions: streaming or incomplete, complete, or truncated", for one action. */
export function actionStatus(
  action: ShownAction,
  messageStreaming: boolean,
): "streaming" | "complete" | "truncated" | "incomplete" {
  const status =
    action.status ?? (action.isTruncated ? "truncated" : action.isComplete ? "complete" : "incomplete");
  // An action still open when its answer ended (stopped, or its server went away) stays unfinished.
  if (status === "streaming" && !messageStreaming) return "incomplete";
  if (status === "incomplete" && messageStreaming) return "streaming";
  return status;
}
