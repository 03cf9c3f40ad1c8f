import "server-only";
import { PREVIEW_TOKEN_TTL_S } from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { signedTokens } from "@/lib/security/signed-token";
import type { RuntimeMode } from "./types";

// The short-lived link of a version's preview. The preview document is opened by this token
// alone, never by the builder's session: it names one version of one app, is signed by us for a
// few minutes, and the document route checks it names the app and version of its path, so a
// link for app A opens nothing of app B. It also says which page frames the document (the
// editor's preview, or the published app), which the data client is told.

const tokens = signedTokens({
  audience: "builder:space-preview",
  salt: "space-preview",
  info: "builder space preview link v1",
});

export type PreviewClaims = { appId: string; versionId: string };

export async function signPreviewToken(
  claims: PreviewClaims & { mode?: RuntimeMode },
  ttlSeconds: number = PREVIEW_TOKEN_TTL_S,
): Promise<{ token: string; expiresAt: Date }> {
  const mode = claims.mode ?? "preview";
  return tokens.sign({ app: claims.appId, ver: claims.versionId, mode }, ttlSeconds);
}

/**
 * Whether the token is ours, unexpired, and for exactly this app and version; its mode when so
 * (a link without one is the editor's preview).
 */
export async function verifyPreviewToken(
  token: string | null,
  expected: PreviewClaims,
): Promise<RuntimeMode> {
  if (!token) throw new AppError("FORBIDDEN", "previewLinkInvalid", "PREVIEW_LINK_INVALID");
  const verdict = await tokens.verify(token);
  if (!verdict.ok && verdict.expired) {
    throw new AppError("FORBIDDEN", "previewLinkExpired", "PREVIEW_LINK_EXPIRED");
  }
  if (!verdict.ok || verdict.payload.app !== expected.appId || verdict.payload.ver !== expected.versionId) {
    throw new AppError("FORBIDDEN", "previewLinkInvalid", "PREVIEW_LINK_INVALID");
  }
  return verdict.payload.mode === "published" ? "published" : "preview";
}
