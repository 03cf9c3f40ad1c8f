import { z } from "zod";

/** A version's preview: a version id, or `current` (the app's head). */
export const PreviewParams = z.object({
  appId: z.uuid(),
  versionId: z.union([z.uuid(), z.literal("current")]),
});
export type PreviewParams = z.infer<typeof PreviewParams>;

/**
 * "App error: title, details, componentName", and where it came from: the build of the
 * version's files on the server, or the app running in the preview frame.
 */
export const PreviewIssue = z.object({
  title: z.string(),
  details: z.string(),
  /** The page or component the error belongs to (a file's name without its extension), when known. */
  componentName: z.string().nullable(),
  source: z.enum(["build", "runtime"]),
});

/** GET /api/apps/{appId}/versions/{versionId}/preview */
export const PreviewAnswer = z.object({
  /** The sandboxed document: load it only in an iframe with `sandbox="allow-scripts allow-forms"`. */
  url: z.string(),
  expiresAt: z.iso.datetime(),
  versionId: z.uuid(),
  versionNumber: z.number().int().min(1),
  build: z.object({ ok: z.boolean(), cached: z.boolean(), issues: z.array(PreviewIssue) }),
});
