import { route } from "@/lib/api/route";
import { AppIdParams } from "@/lib/apps/schemas";
import { uploadRunPhoto } from "@/lib/runs/photos";
import { RUN_PHOTO_TYPES, RunPhotoAnswer, RunPhotoQuery } from "@/lib/runs/run-photo";

// POST /api/apps/{appId}/run/photos?toolId= - upload a photo for a tool's photo field (the body is
// the image's bytes, read once the uploader's rate limit point is taken); answers { id, file_url }
export const POST = route(
  {
    auth: "public",
    params: AppIdParams,
    query: RunPhotoQuery,
    cap: "image",
    summary:
      "Upload a photo for a run (raw JPEG, PNG, WebP or GIF bytes); answers id and file_url, the photo field's value in the run's inputs",
    upload: RUN_PHOTO_TYPES,
    response: RunPhotoAnswer,
    // 401: the app asks visitors to sign in, or is for members; 402: no membership; 403: a disabled
    // end user; 404: app or tool not found; 413: over the image cap; 429: too many photos; 502:
    // Gumroad could not confirm a membership.
    errors: [401, 402, 403, 404, 413, 429, 502],
  },
  ({ session, params, query, ip, req }) =>
    uploadRunPhoto({ session, appId: params.appId, toolId: query.toolId, ip, req }),
);
