import { route } from "@/lib/api/route";
import { AppIdParams } from "@/lib/apps/schemas";
import { uploadRunPhoto } from "@/lib/runs/photos";
import { RunPhotoQuery } from "@/lib/runs/run-photo";

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
  },
  ({ session, params, query, ip, req }) =>
    uploadRunPhoto({ session, appId: params.appId, toolId: query.toolId, ip, req }),
);
