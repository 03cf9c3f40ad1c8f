import type { UIMessage } from "ai";
import { isUpgradeReason, type UpgradeReason } from "@/lib/plans/upgrade-reasons";
import type { ChatAction, ChatMessageMetadata } from "@/lib/space/chat-schemas";
import type { ChatMessageView } from "@/lib/space/views";

// The answer useChat is streaming, shown with the same components as the stored messages: its
// UI message (parts as the stream builds them, metadata merged from start / finish) read as a
// ChatMessageView, the shape of GET .../chat/history (lib/space/views.ts).

/** The version the stream announces when the answer's changes were applied (data-version). */
type VersionData = { id: string; number: number };

export type SpaceUIMessage = UIMessage<
  Partial<ChatMessageMetadata> & { anchor?: boolean },
  { action: ChatAction; version: VersionData }
>;

/** A message the chat needs as the last one of a regenerate request ('Let's keep going', retry); never shown. */
export const ANCHOR_ID = "space-chat-anchor";
export const anchorMessage = (): SpaceUIMessage => ({
  id: ANCHOR_ID,
  role: "user",
  parts: [],
  metadata: { anchor: true },
});

export const textOf = (m: SpaceUIMessage | undefined) =>
  (m?.parts ?? [])
    .filter((p): p is { type: "text"; text: string } => p.type === "text")
    .map((p) => p.text)
    .join("");

/**
 * A streamed message as the chat view shows it. The optimistic user message keeps its client
 * id until the answer's metadata names its stored id (`userMessageId`).
 */
export function liveView(
  m: SpaceUIMessage,
  answerMeta: SpaceUIMessage["metadata"],
  now: string,
): ChatMessageView {
  const meta = m.metadata ?? {};
  const isUser = m.role === "user";
  const parts: unknown[] = [];
  const actions: ChatAction[] = [];
  let version: VersionData | null = null;
  for (const p of m.parts) {
    if (p.type === "text") parts.push({ type: "text", text: p.text });
    else if (p.type === "data-action") {
      parts.push({ type: "data-action", id: p.id, data: p.data });
      actions.push(p.data);
    } else if (p.type === "data-version") version = p.data;
  }
  return {
    id: isUser ? (answerMeta?.userMessageId ?? m.id) : (meta.messageId ?? m.id),
    role: isUser ? "user" : "assistant",
    kind: "message",
    content: textOf(m),
    parts,
    experimental_attachments: [],
    actions,
    error: meta.error ?? null,
    createdAt: now,
    annotations: [
      {
        versionId: isUser ? null : (meta.versionId ?? version?.id ?? null),
        versionNumber:
          isUser || !version || (meta.versionId && meta.versionId !== version.id) ? null : version.number,
        status: isUser ? "complete" : (meta.status ?? "streaming"),
        usage: (meta.usage as Record<string, unknown> | null | undefined) ?? null,
        rating: null,
        contextFiles: null,
        contextMetadata: null,
        systemActionInfo: null,
        discussModeMetadata: { isDiscussMode: meta.discussMode ?? answerMeta?.discussMode ?? false },
      },
    ],
  };
}

/**
 * A refusal the chat route answered before any stream (`{ error: { code, message } }` of route()),
 * with the plan limit behind it when an upgrade lifts it (the builder's AI requests).
 */
export function refusalOf(
  err: unknown,
): { code: string; message: string; upgradeReason?: UpgradeReason } | null {
  const body = (err as { responseBody?: unknown } | null)?.responseBody;
  if (typeof body !== "string") return null;
  try {
    const parsed = JSON.parse(body) as {
      error?: { code?: unknown; message?: unknown };
      upgradeReason?: unknown;
    };
    const reason = parsed.upgradeReason;
    if (typeof parsed.error?.message === "string")
      return {
        code: String(parsed.error.code ?? ""),
        message: parsed.error.message,
        ...(typeof reason === "string" && isUpgradeReason(reason) ? { upgradeReason: reason } : {}),
      };
  } catch {
    // not JSON: not one of our refusals
  }
  return null;
}
