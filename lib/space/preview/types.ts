// What the preview of a space app version tells its embedder. Client-safe: the editor's
// components import these types and constants; nothing here touches the server.

/**
 * "App error: title, details, componentName", and where it came from: the build of the
 * version's files on the server, or the app running in the preview frame.
 */
export type PreviewIssue = {
  title: string;
  details: string;
  /** The page or component the error belongs to (a file's name without its extension), when known. */
  componentName: string | null;
  source: "build" | "runtime";
};

/** GET /api/apps/{appId}/versions/{versionId}/preview */
export type PreviewAnswer = {
  /** The sandboxed document: load it only in an iframe with `sandbox="allow-scripts allow-forms"`. */
  url: string;
  expiresAt: string;
  versionId: string;
  versionNumber: number;
  build: { ok: boolean; cached: boolean; issues: PreviewIssue[] };
};

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
