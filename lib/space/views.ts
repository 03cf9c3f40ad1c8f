import type { z } from "zod";
import type { ChatMessage, ChatMessageKind, ChatMessageStatus, Rating, Version } from "@/db/schema";
import type { RatingAnswer, SystemActionInfo as SystemActionInfoSchema, VersionAnswer } from "./schemas";

// What the space routes answer: versions and chat messages in the shapes clients expect, typed by
// their answer schemas (lib/space/schemas.ts). The jsonb columns are read as the code writing them
// wrote them.

export type VersionSummary = z.infer<typeof VersionAnswer>;

export function versionSummary(v: Version, currentId: string | null): VersionSummary {
  return {
    id: v.id,
    number: v.number,
    kind: v.kind,
    createdAt: v.createdAt.toISOString(),
    timestamp: v.createdAt.getTime(),
    messageId: v.messageId,
    parentId: v.parentId,
    userRequest: v.userRequest,
    description: v.description,
    fileCount: v.fileCount,
    isCurrent: v.id === currentId,
    metadata: v.metadata as VersionSummary["metadata"],
  };
}

export type RatingView = z.infer<typeof RatingAnswer>;
export type SystemActionInfo = z.infer<typeof SystemActionInfoSchema>;

// The message types stay looser than their answer schema (ChatMessageAnswer): the chat view reads
// stored jsonb (parts, actions, usage) defensively, whatever an older answer wrote.

/**
 * "annotations[0] with versionId, status (failed marks an error), usage, rating, contextFiles,
 * contextMetadata, systemActionInfo, discussModeMetadata".
 */
export type MessageAnnotation = {
  versionId: string | null;
  /** The number of that version, as the Versions dialog names it ("Version N"). */
  versionNumber: number | null;
  status: ChatMessageStatus;
  usage: Record<string, unknown> | null;
  rating: RatingView | null;
  contextFiles: unknown[] | null;
  contextMetadata: Record<string, unknown> | null;
  systemActionInfo: SystemActionInfo | null;
  discussModeMetadata: { isDiscussMode: boolean };
};

/** "Chat message: id, role, content, parts, experimental_attachments, ..., createdAt, annotations[0]" */
export type ChatMessageView = {
  id: string;
  role: "user" | "assistant";
  kind: ChatMessageKind;
  content: string;
  parts: unknown[];
  experimental_attachments: unknown[];
  /** The chat actions of an answer. */
  actions: unknown[];
  /** Why a failed answer failed, when known. */
  error: string | null;
  createdAt: string;
  annotations: [MessageAnnotation];
};

export function ratingView(r: Rating | null): RatingView | null {
  return r
    ? { score: r.score, feedback: r.feedback, comment: r.comment, createdAt: r.createdAt.toISOString() }
    : null;
}

export function chatMessageView(
  m: ChatMessage,
  rating: Rating | null = null,
  versionNumber: number | null = null,
): ChatMessageView {
  return {
    id: m.id,
    role: m.role,
    kind: m.kind,
    content: m.content,
    parts: m.parts,
    experimental_attachments: m.attachments,
    actions: m.actions,
    error: m.error,
    createdAt: m.createdAt.toISOString(),
    annotations: [
      {
        versionId: m.versionId,
        versionNumber: m.versionId ? versionNumber : null,
        status: m.status,
        usage: m.usage ?? null,
        rating: ratingView(rating),
        contextFiles: m.contextFiles ?? null,
        contextMetadata: m.contextMetadata ?? null,
        systemActionInfo: (m.systemAction as SystemActionInfo | null) ?? null,
        discussModeMetadata: { isDiscussMode: m.discussMode },
      },
    ],
  };
}
