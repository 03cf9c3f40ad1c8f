import "server-only";
import crypto from "node:crypto";
import { appOrigin, env } from "@/lib/env";
import { messages } from "@/lib/messages";
import { baseSecurityHeaders } from "@/lib/security/headers";
import type { PreviewBuild } from "./build";
import { BUILD_FAILED_SOURCE, CONFIG_GLOBAL } from "./runtime-source";
import { PREVIEW_SANDBOX, type RuntimeMode } from "./types";

// The preview document and the headers that keep it away from the builder. The app's code runs
// in an opaque origin (CSP `sandbox` without allow-same-origin: whatever the URL, the document is
// of no origin), so it can read none of our cookies or storage and its requests to us are
// cross-site and credential-less; it may run only the scripts of this answer (a fresh nonce),
// connect only to our API (the data client's calls, with a bearer token the page around it
// hands over), and be framed only by our own pages. Nothing here reads or sets a cookie.

/** The origin the preview documents are served from: PREVIEW_ORIGIN, else none of its own. */
export function previewOrigin(): string | null {
  const o = env().PREVIEW_ORIGIN;
  return o ? new URL(o).origin : null;
}

export function previewDocumentCsp(nonce: string, mode: RuntimeMode = "preview"): string {
  return [
    `sandbox ${PREVIEW_SANDBOX}`,
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    // The app's styles are inline; a stylesheet may load web fonts and images (https only).
    "style-src 'unsafe-inline' https:",
    "img-src data: blob: https:",
    "font-src data: https:",
    "media-src data: blob: https:",
    // The data client (@app/client) calls the app's data API, on the app origin, and nothing else.
    `connect-src ${appOrigin()}`,
    "form-action 'none'",
    "base-uri 'none'",
    // The editor frames a preview; a published app's page may itself be framed by its builder's
    // site (as every /app page may), and an ancestor the document refuses would blank the app.
    `frame-ancestors 'self' ${appOrigin()}${mode === "published" ? " https:" : ""}`,
  ].join("; ");
}

/** Headers of every answer of the document route, the document or an error. */
export function previewHeaders(
  nonce: string,
  contentType: string,
  mode: RuntimeMode = "preview",
): Record<string, string> {
  return {
    ...baseSecurityHeaders(),
    "Content-Type": contentType,
    "Content-Security-Policy": previewDocumentCsp(nonce, mode),
    // The link carries its token: no image or font request of the app may send it on.
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "private, no-store",
    "Cross-Origin-Opener-Policy": "same-origin",
  };
}

// Inside <script> and <style>, only a closing tag could end the element early.
const scriptSafe = (s: string) => s.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");
const styleSafe = (s: string) => s.replace(/<\/(style)/gi, "<\\/$1");
const json = (v: unknown) => JSON.stringify(v).replace(/</g, "\\u003c");

/** Where the data client of a document calls, for which app, and in which page it runs. */
export type RuntimeConfig = { apiBase: string; appId: string; mode: RuntimeMode };

export const runtimeConfig = (appId: string, mode: RuntimeMode): RuntimeConfig => ({
  apiBase: appOrigin(),
  appId,
  mode,
});

export function previewConfig(build: PreviewBuild, runtime: RuntimeConfig) {
  return {
    text: {
      buildFailed: messages.previewBuildFailed,
      runtimeError: messages.previewRuntimeError,
      noPages: messages.previewNoPages,
      pageNotFound: messages.previewPageNotFound,
      noDefaultExport: messages.previewNoDefaultExport,
      clientTokenTimeout: messages.clientTokenTimeout,
      clientNetworkError: messages.clientNetworkError,
      clientRequestFailed: messages.clientRequestFailed,
    },
    runtime,
    buildIssues: build.ok ? [] : build.issues,
  };
}

/** The HTML of a version's preview: the vendor script, then the app (or its build errors). */
export function previewHtml(
  build: PreviewBuild,
  vendorJs: string,
  nonce: string,
  title: string,
  runtime: RuntimeConfig,
): string {
  const scripts = build.ok ? [vendorJs, build.js] : [BUILD_FAILED_SOURCE];
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    build.ok && build.css ? `<style>${styleSafe(build.css)}</style>` : "",
    '</head><body><div id="root"></div>',
    `<script nonce="${nonce}">globalThis.${CONFIG_GLOBAL} = ${json(previewConfig(build, runtime))};</script>`,
    ...scripts.map((s) => `<script nonce="${nonce}">${scriptSafe(s)}</script>`),
    "</body></html>",
  ].join("");
}

export const newNonce = () => crypto.randomBytes(16).toString("base64");

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
