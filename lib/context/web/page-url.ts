/**
 * The address of a link as the crawler follows it: absolute, http or https, without fragment or
 * credentials; undefined for anything else (mailto:, javascript:, a malformed href).
 */
export function resolveLink(href: string, base?: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(href.trim(), base);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  url.hash = "";
  url.username = "";
  url.password = "";
  return url;
}

/**
 * One key per page, so a page is read once however it is linked: the URL parser already drops
 * default ports and lower-cases the host; the fragment is gone (resolveLink); the scheme is left
 * out (http and https of one host serve the same site) and so is a trailing slash ("/docs/" and
 * "/docs" are one page on nearly every site).
 */
export function pageKey(url: URL): string {
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, "") || "/" : "/";
  return `${url.host}${path}${url.search}`;
}

/** Same site: the same host (and port), either scheme. */
export function sameSite(url: URL, site: URL): boolean {
  return url.host === site.host;
}
