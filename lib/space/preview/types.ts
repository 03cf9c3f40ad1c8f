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

/**
 * The messages of the data client (@app/client) between the frame and the page around it: the
 * frame's side is client-source.ts, the page's components/space/use-runtime-bridge.ts.
 */
export const RUNTIME_MESSAGE = {
  /** frame -> parent: "send me a token" (first data call, and after the server said it expired). */
  tokenRequest: "space-runtime:token-request",
  /** parent -> frame: `{ token, expiresAt, user }`; token null: the viewer is anonymous. */
  token: "space-runtime:token",
  /** frame -> parent: the app's code asks for the app's sign-in or sign-out page. */
  signIn: "space-runtime:sign-in",
  signOut: "space-runtime:sign-out",
} as const;

/** The app's runtime as its document tells the data client: the editor's preview or the published app. */
export type RuntimeMode = "preview" | "published";
