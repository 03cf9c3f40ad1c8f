import { OkAnswer } from "@/lib/api/answers";
import { route } from "@/lib/api/route";
import { UploadParams } from "@/lib/uploads/schemas";
import { deleteUpload } from "@/lib/uploads/upload-image";

// DELETE /api/apps/{appId}/uploads/{uploadId} - delete an image of the app, from storage too
export const DELETE = route(
  {
    auth: "builder",
    params: UploadParams,
    app: "edit",
    summary: "Delete an uploaded image of the app",
    response: OkAnswer,
  },
  ({ app, params }) => deleteUpload(app, params.uploadId),
);
