import "server-only";
import { findAppById } from "@/db/queries/apps";
import { readBlobs } from "@/db/queries/space-files";
import { findVersion } from "@/db/queries/space-versions";
import type { App } from "@/db/schema";
import { PUBLISHED_DOCUMENT_TTL_S } from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { logError } from "@/lib/log";
import { messages } from "@/lib/messages";
import { assertSpaceApp, currentHead, treeOf } from "@/lib/space/commit";
import { fillTemplate } from "@/lib/text";
import { buildPreview, isPreviewFile, type PreviewBuild } from "./build";
import { previewKey, withPreviewCache } from "./cache";
import { newNonce, previewHeaders, previewHtml, previewOrigin, runtimeConfig } from "./document";
import { signPreviewToken, verifyPreviewToken } from "./token";
import type { PreviewAnswer } from "./types";
import { previewVendor } from "./vendor";

// The preview of a space app version: its build (cached by its files), the signed link the
// editor frames, and the document that link opens.

/** A version's build, from the cache when the same files were built before. */
export async function buildVersionPreview(
  appId: string,
  versionId: string,
): Promise<{ build: PreviewBuild; cached: boolean }> {
  const tree = new Map([...(await treeOf(appId, versionId))].filter(([p]) => isPreviewFile(p)));
  return withPreviewCache(previewKey(tree), async () => {
    const contents = await readBlobs(appId, [...new Set(tree.values())]);
    const files = new Map([...tree].map(([p, hash]) => [p, contents.get(hash) ?? ""]));
    return buildPreview(files);
  });
}

/** Where the document of a version is, on the preview origin when there is one. */
export function previewDocumentPath(appId: string, versionId: string, token: string): string {
  return `/api/apps/${appId}/versions/${versionId}/preview/document?token=${encodeURIComponent(token)}`;
}

/**
 * GET /api/apps/{appId}/versions/{versionId}/preview: builds the version (or the current one)
 * and answers a short-lived link to its sandboxed document, with the build's errors.
 */
export async function openVersionPreview(app: App, versionParam: string): Promise<PreviewAnswer> {
  assertSpaceApp(app);
  const versionId = versionParam === "current" ? (await currentHead(app.id)).versionId : versionParam;
  if (!versionId) throw new AppError("NOT_FOUND", "previewNoFiles", "NO_VERSION");
  const version = await findVersion(app.id, versionId);
  if (!version) throw new AppError("NOT_FOUND", "versionNotFound");
  const [{ build, cached }] = await Promise.all([buildVersionPreview(app.id, version.id), previewVendor()]);
  const { token, expiresAt } = await signPreviewToken({ appId: app.id, versionId: version.id });
  return {
    url: `${previewOrigin() ?? ""}${previewDocumentPath(app.id, version.id, token)}`,
    expiresAt: expiresAt.toISOString(),
    versionId: version.id,
    versionNumber: version.number,
    build: { ok: build.ok, cached, issues: build.issues },
  };
}

/**
 * The published app's frame (/app/{appId}): a link to the document of its current version, run
 * as the published app (its data client's sign-in goes to the app's sign-in page), or null when
 * the app has no version yet. Only signs: the document builds on its first request, from the
 * cache when publishing built it (warmPublishedBuild).
 */
export async function publishedDocumentLink(
  appId: string,
): Promise<{ url: string; versionId: string; expiresAt: Date } | null> {
  const { versionId } = await currentHead(appId);
  if (!versionId) return null;
  const { token, expiresAt } = await signPreviewToken(
    { appId, versionId, mode: "published" },
    PUBLISHED_DOCUMENT_TTL_S,
  );
  return {
    url: `${previewOrigin() ?? ""}${previewDocumentPath(appId, versionId, token)}`,
    versionId,
    expiresAt,
  };
}

/**
 * Builds the current version of a space app into the cache, so the first visitor of a just
 * published app does not wait for it. Never fails: a build that cannot be made now is made (and
 * its errors shown) when the app is opened.
 */
export async function warmPublishedBuild(appId: string): Promise<void> {
  try {
    const { versionId } = await currentHead(appId);
    if (versionId) await Promise.all([buildVersionPreview(appId, versionId), previewVendor()]);
  } catch (err) {
    logError("space app: building the published version failed", { appId, err });
  }
}

/**
 * GET .../preview/document?token=: the preview itself, opened by the signed token of this app
 * and version alone (no session is read). Errors are JSON with the same sandboxing headers.
 */
export async function servePreviewDocument(appId: string, versionId: string, token: string | null) {
  const nonce = newNonce();
  try {
    const mode = await verifyPreviewToken(token, { appId, versionId });
    const version = await findVersion(appId, versionId);
    if (!version) throw new AppError("NOT_FOUND", "versionNotFound");
    const [{ build }, vendor, app] = await Promise.all([
      buildVersionPreview(appId, versionId),
      previewVendor(),
      mode === "published" ? findAppById(appId) : undefined,
    ]);
    const title =
      mode === "published"
        ? app?.header || messages.publicUntitledApp
        : fillTemplate(messages.previewFrameTitle, { number: version.number });
    return new Response(previewHtml(build, vendor.js, nonce, title, runtimeConfig(appId, mode)), {
      headers: previewHeaders(nonce, "text/html; charset=utf-8", mode),
    });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return Response.json(
      { error: { code: err.code, message: err.message } },
      { status: err.status, headers: previewHeaders(nonce, "application/json") },
    );
  }
}
