import { z } from "zod";

/** A version's preview: a version id, or `current` (the app's head). */
export const PreviewParams = z.object({
  appId: z.uuid(),
  versionId: z.union([z.uuid(), z.literal("current")]),
});
export type PreviewParams = z.infer<typeof PreviewParams>;
