import { appOrigin, env, isProduction } from "@/lib/env";

// Security headers of every answer: pages get theirs from proxy.ts (with a fresh nonce for
// Next's scripts), API answers from the route wrapper. Decided at run time, from APP_URL.

const usesHttps = () => env().APP_URL.startsWith("https:");

/** Headers every answer carries, page or API. */
export function baseSecurityHeaders(): Record<string, string> {
  return {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()",
    ...(usesHttps() ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
  };
}

/** API answers: JSON for our own scripts, never rendered, framed or cached. */
export function apiSecurityHeaders(): Record<string, string> {
  return {
    ...baseSecurityHeaders(),
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
    "Cache-Control": "no-store",
  };
}

/**
 * Published apps (their pages and sign-in) may be embedded by their builders on their own
 * sites; every other page, builder and account pages above all, may not be framed at all
 * (docs/security.md, "Security headers").
 */
export function isEmbeddablePath(pathname: string): boolean {
  return /^\/(app|tool|item)(\/|$)/.test(pathname);
}

/** A page's Content-Security-Policy: scripts only from us or carrying this request's nonce. */
export function pageCsp(nonce: string, pathname: string): string {
  const dev = !isProduction();
  const google = env().GOOGLE_ISSUER ? new URL(env().GOOGLE_ISSUER!).origin : "https://accounts.google.com";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    // React and Radix set style attributes; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    // Uploaded logos and backgrounds are stored as APP_URL/api/files/... addresses: ours even
    // when the page is reached by another host name.
    `img-src 'self' ${appOrigin()} data: blob:`,
    "font-src 'self' data:",
    `connect-src 'self'${dev ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self' ${google}`,
    `frame-ancestors ${isEmbeddablePath(pathname) ? "'self' https:" : "'none'"}`,
    // The editor frames space app previews: same host, or the preview origin (lib/space/preview).
    `frame-src 'self'${env().PREVIEW_ORIGIN ? ` ${new URL(env().PREVIEW_ORIGIN!).origin}` : ""}`,
  ].join("; ");
}

/** Every header of a page answer. */
export function pageSecurityHeaders(nonce: string, pathname: string): Record<string, string> {
  return {
    ...baseSecurityHeaders(),
    "Content-Security-Policy": pageCsp(nonce, pathname),
    ...(isEmbeddablePath(pathname) ? {} : { "X-Frame-Options": "DENY" }),
  };
}
