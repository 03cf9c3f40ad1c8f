import { route } from "@/lib/api/route";
import { IMAGE_MEDIA_TYPES } from "@/lib/uploads/image-type";
import { AppParams, UploadAnswer, UploadQuery } from "@/lib/uploads/schemas";
import { uploadImage } from "@/lib/uploads/upload-image";

// POST /api/apps/{appId}/uploads?kind=logo|background|option|thumb&toolId= - store an image of
// the app; the body is the file's bytes, whatever its name or declared type (sniffed)
export const POST = route(
  {
    auth: "builder",
    params: AppParams,
    query: UploadQuery,
    app: "edit",
    raw: true,
    cap: "image",
    summary: "Upload an image of the app (raw bytes); answers file_url",
    upload: IMAGE_MEDIA_TYPES,
    response: UploadAnswer,
  },
  ({ app, query, raw }) => uploadImage(app, query, raw),
);
