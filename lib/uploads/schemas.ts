import { z } from "zod";
import { storableString } from "@/lib/storable-text";

// Shapes of the image upload routes, shared by the routes, the client helper and the tests.

/** What an image is for; it decides the storage key. */
export const UPLOAD_KINDS = ["logo", "background", "option", "thumb"] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

/** POST /api/apps/{appId}/uploads?kind=&toolId= (the body is the image's bytes). */
export const UploadQuery = z
  .object({
    kind: z.enum(UPLOAD_KINDS),
    /** The tool the image belongs to; a thumbnail needs one. */
    toolId: z.uuid().optional(),
  })
  .refine((q) => q.kind !== "thumb" || q.toolId !== undefined, {
    message: "A tool thumbnail needs its toolId",
    path: ["toolId"],
  });
export type UploadQuery = z.infer<typeof UploadQuery>;

export const AppParams = z.object({ appId: z.uuid() });
export const UploadParams = z.object({ appId: z.uuid(), uploadId: storableString() });
/** GET /api/files/{...key} */
export const FileParams = z.object({ key: z.array(storableString()).min(1) });

/** The answer to an upload: `file_url` is what the app's content stores. */
export const UploadAnswer = z.object({
  id: z.uuid(),
  file_url: storableString(),
  key: storableString(),
  contentType: storableString(),
  size: z.number().int(),
});
export type UploadAnswer = z.infer<typeof UploadAnswer>;

/** Files are served here; `?v=` names the upload, so a replaced thumbnail gets a new URL. */
export const FILES_PATH = "/api/files/";

/** The upload a served URL names (its `v`), or null for any other URL. */
export function uploadIdFromUrl(url: string): string | null {
  try {
    const parsed = new URL(url, "http://localhost");
    if (!parsed.pathname.startsWith(FILES_PATH)) return null;
    const v = parsed.searchParams.get("v");
    return v && z.uuid().safeParse(v).success ? v : null;
  } catch {
    return null;
  }
}
