import type { z } from "zod";
import type { PreviewAnswer as PreviewAnswerSchema, PreviewIssue as PreviewIssueSchema } from "./schemas";

// What the preview of a space app version tells its embedder. Client-safe: the editor's
// components import these types and constants; nothing here touches the server.

/** "App error: title, details, componentName" and its source (PreviewIssue of ./schemas.ts). */
export type PreviewIssue = z.infer<typeof PreviewIssueSchema>;

/** GET /api/apps/{appId}/versions/{versionId}/preview */
export type PreviewAnswer = z.infer<typeof PreviewAnswerSchema>;

/**
 * The messages the preview frame posts to its parent (`window.parent.postMessage(msg, "*")`): the
 * frame's origin is opaque, so the parent knows it by `event.source`, never by `event.origin`.
 */
export const PREVIEW_MESSAGE = {
  /** The app rendered its first page. */
  ready: "space-preview:ready",
  /** The full list of the frame's issues, each time it changes. */
  issues: "space-preview:issues",
} as const;

export type PreviewFrameMessage =
  | { type: typeof PREVIEW_MESSAGE.ready; page: string | null }
  | { type: typeof PREVIEW_MESSAGE.issues; issues: PreviewIssue[] };

/** The iframe's sandbox: scripts and form events, never the embedder's origin (no allow-same-origin). */
export const PREVIEW_SANDBOX = "allow-scripts allow-forms";
