import { z } from "zod";
import { FILES_PATH } from "@/lib/uploads/schemas";

// The photos end users upload for a tool's photo fields: shapes shared by the upload
// route, the run's input check and the public page's picker. A photo field's value in a run is
// the `file_url` its upload answered, and nothing else: the model is sent the stored bytes, so
// no address of ours, or of anybody, is ever handed to the model server to fetch.

/** The folder of run photos under the app owner's prefix: accounts/{account}/apps/{app}/run-photos/{id}.{ext} */
export const RUN_PHOTO_FOLDER = "run-photos";

/** The image types a model takes (those of lib/uploads/image-type.ts that OpenAI-compatible vision accepts). */
export const RUN_PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"] as const;

/** What the picker offers: every image, so phones offer the camera too; the server decides by content. */
export const RUN_PHOTO_ACCEPT = "image/*";

/** POST /api/apps/{appId}/run/photos?toolId= (the body is the photo's bytes). */
export const RunPhotoQuery = z.object({
  /** The tool of a generated app; omitted for a single-tool app. */
  toolId: z.uuid().optional(),
});
export type RunPhotoQuery = z.infer<typeof RunPhotoQuery>;

/** The answer to a photo upload: `file_url` is the value of the photo field in the run's inputs. */
export const RunPhotoAnswer = z.object({ id: z.uuid(), file_url: z.string() });
export type RunPhotoAnswer = z.infer<typeof RunPhotoAnswer>;

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const KEY = new RegExp(
  `^accounts/${UUID}/apps/${UUID}/${RUN_PHOTO_FOLDER}/(${UUID})\\.(?:jpg|png|webp|gif)$`,
);

/**
 * The upload a photo field's value names: its storage key and id, when the value is a run photo's
 * `file_url` exactly as answered (/api/files/{key}?v={id}); null for anything else (another
 * site's address, another kind of upload, a path with anything added).
 */
export function parseRunPhotoUrl(value: string): { key: string; id: string } | null {
  if (!value.startsWith(FILES_PATH)) return null;
  const [path, query, ...rest] = value.slice(FILES_PATH.length).split("?");
  if (path === undefined || query === undefined || rest.length > 0) return null;
  const id = KEY.exec(path)?.[1];
  return id && query === `v=${id}` ? { key: path, id } : null;
}
