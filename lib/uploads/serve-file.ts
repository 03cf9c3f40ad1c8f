import "server-only";
import { findServedUpload, openUpload } from "./upload-image";

const IMMUTABLE = "public, max-age=31536000, immutable";
// An end user's photo for a run: never kept by a shared cache (a proxy, a CDN).
const PRIVATE = "private, max-age=31536000, immutable";
const REVALIDATE = "public, max-age=0, must-revalidate";

/**
 * Serves a stored image to anybody (published apps show their logos to every visitor), as an
 * image only: its type from our record, never sniffed; no scripts, no plugins, no same-origin
 * rights even when opened on its own; SVG (which can carry scripts) only as a download when
 * opened directly, while an <img> still shows it.
 */
export async function serveUploadedFile(req: Request, key: string): Promise<Response> {
  const upload = await findServedUpload(key);
  const etag = `"${upload.id}"`;
  // Other keys hold one image forever; a thumbnail's fixed key is replaced, so only the URL of
  // the current one (?v= its id) may be cached for good.
  const current = upload.kind !== "thumb" || new URL(req.url).searchParams.get("v") === upload.id;
  const headers: Record<string, string> = {
    "Content-Type": upload.contentType,
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    "Cache-Control": upload.kind === "run_photo" ? PRIVATE : current ? IMMUTABLE : REVALIDATE,
    // Published apps may be embedded, and generated apps run on another origin.
    "Cross-Origin-Resource-Policy": "cross-origin",
    ETag: etag,
  };
  if (upload.contentType === "image/svg+xml") headers["Content-Disposition"] = "attachment";
  if (matchesEtag(req.headers.get("if-none-match"), etag))
    return new Response(null, { status: 304, headers });
  const object = await openUpload(upload);
  if (object.size !== undefined) headers["Content-Length"] = String(object.size);
  if (req.method === "HEAD") {
    await object.body.cancel();
    return new Response(null, { headers });
  }
  return new Response(object.body, { headers });
}

function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header
    .split(",")
    .map((t) => t.trim().replace(/^W\//, ""))
    .some((t) => t === etag || t === "*");
}
