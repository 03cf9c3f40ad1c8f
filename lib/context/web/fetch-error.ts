/**
 * Why a page could not be fetched. The crawler skips a page that fails this way, or, for the
 * start page, fails the source with the builder-facing message of the code (crawl.ts).
 */
export type WebFetchErrorCode =
  /** Not an absolute http:// or https:// address. */
  | "invalid_url"
  /** The host is, or resolves to, a private, local or metadata address (or a redirect leads there). */
  | "forbidden_address"
  /** The host name does not resolve. */
  | "dns_failed"
  /** Connection refused, reset, TLS failure... */
  | "unreachable"
  | "timeout"
  /** More bytes than the per-page cap (after decompression). */
  | "too_large"
  /** Not an HTML or plain-text page. */
  | "unsupported_type"
  /** A final answer other than 2xx (`status` says which). */
  | "http_status"
  | "too_many_redirects"
  /** robots.txt does not allow us this page. */
  | "robots_disallowed";

export class WebFetchError extends Error {
  constructor(
    readonly code: WebFetchErrorCode,
    message: string,
    readonly details: { url?: string; status?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: details.cause });
    this.name = "WebFetchError";
  }

  get status(): number | undefined {
    return this.details.status;
  }
}
