import type { NextRequest } from "next/server";
import { errorResponse } from "@/lib/api/route";
import { servePreviewDocument } from "@/lib/space/preview/service";

// Why this handler is bare, not route(): the preview document must be opened by its signed token
// alone. route() reads the session cookie; this answer is for a sandboxed frame that must never
// act as the builder, so it reads no cookie and no Authorization header at all.

// GET /api/apps/{appId}/versions/{versionId}/preview/document?token= - the preview document, opened by its signed link; sandboxed, no credentials
export async function GET(
  req: NextRequest,
  context: { params: Promise<{ appId: string; versionId: string }> },
): Promise<Response> {
  try {
    const { appId, versionId } = await context.params;
    return await servePreviewDocument(appId, versionId, req.nextUrl.searchParams.get("token"));
  } catch (err) {
    return errorResponse(err, crypto.randomUUID(), req);
  }
}
