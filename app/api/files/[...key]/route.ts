import { route } from "@/lib/api/route";
import { FileParams } from "@/lib/uploads/schemas";
import { serveUploadedFile } from "@/lib/uploads/serve-file";

// GET /api/files/{...key} - an uploaded image, to anybody (published apps show their logos)
export const GET = route(
  {
    auth: "public",
    params: FileParams,
    summary: "An uploaded image, served as an image only",
    // The image's bytes (304 when the ETag matches); 404: no such stored image
    errors: [404],
    stream: { contentType: "image/*", description: "The image's bytes, served as the type it was stored as" },
    redirects: { 304: "Not modified: the ETag the client sent (If-None-Match) is the image's" },
  },
  ({ req, params }) => serveUploadedFile(req, params.key.join("/")),
);
