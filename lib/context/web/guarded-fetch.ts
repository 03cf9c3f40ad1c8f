import "server-only";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import zlib from "node:zlib";
import { checkAddress } from "./address-policy";
import { WebFetchError } from "./fetch-error";
import { type ResolvedAddress, resolveHost } from "./resolve-host";
import { type ScraperNetwork, scraperNetworkFromEnv } from "./scraper-config";

/** How we introduce ourselves to sites; robots.txt rules for "BuilderBot" apply to us. */
export const ROBOTS_USER_AGENT = "BuilderBot";
export const SCRAPER_USER_AGENT = `Mozilla/5.0 (compatible; ${ROBOTS_USER_AGENT}/1.0)`;

const MB = 1024 * 1024;
export const FETCH_DEFAULTS = {
  /** The whole fetch: DNS, connection, every redirect and the body. */
  timeoutMs: 10_000,
  /** Until the TCP connection is open. */
  connectTimeoutMs: 5_000,
  /** Bytes of one page after decompression; a page of text is far smaller. */
  maxBytes: 5 * MB,
  maxRedirects: 5,
};

export type GuardedFetchOptions = Partial<typeof FETCH_DEFAULTS> & {
  /** Who resolves names and which private hosts are allowed; default: the environment's. */
  network?: ScraperNetwork;
  /** Any content type (robots.txt); by default only HTML and plain text. */
  anyContentType?: boolean;
  /** Past maxBytes keep the first maxBytes (robots.txt) instead of failing with too_large. */
  truncate?: boolean;
};

export type FetchedPage = {
  /** Where the page was found, after redirects. */
  url: string;
  /** The media type, lower case, without parameters ("text/html"). */
  mediaType: string;
  text: string;
  truncated: boolean;
};

const PAGE_TYPES = new Set(["text/html", "application/xhtml+xml", "text/plain"]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GET of a page a builder pointed us at, safe to run inside our network (SSRF): only http(s);
 * the host name is resolved by us and every address it resolves to must be public (or allowed by
 * SCRAPER_ALLOW_PRIVATE_HOSTS, metadata services never); the connection then goes to that checked
 * address (the request's DNS lookup is pinned to it), so a DNS answer that changes between the
 * check and the connection (rebinding) cannot send us elsewhere. Redirects are followed here, at
 * most maxRedirects, each target checked the same way. Timeouts, a size cap (counted while
 * streaming, after decompression) and the content type bound what one page can cost.
 * Failures are WebFetchError with a code.
 */
export async function guardedFetch(input: string, options: GuardedFetchOptions = {}): Promise<FetchedPage> {
  const opts = { ...FETCH_DEFAULTS, ...options };
  const network = options.network ?? scraperNetworkFromEnv();
  let url = parseHttpUrl(input);
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new WebFetchError("timeout", `${input} took over ${opts.timeoutMs} ms`)),
    opts.timeoutMs,
  );
  try {
    for (let redirects = 0; ; redirects++) {
      const target = await checkedTarget(url, network, controller.signal);
      const res = await request(url, target, opts.connectTimeoutMs, controller.signal);
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (REDIRECTS.has(status) && location) {
        res.destroy();
        if (redirects >= opts.maxRedirects) {
          throw new WebFetchError("too_many_redirects", `${input}: over ${opts.maxRedirects} redirects`);
        }
        url = parseHttpUrl(new URL(location, url).href);
        continue;
      }
      if (status < 200 || status >= 300) {
        res.destroy();
        throw new WebFetchError("http_status", `${url.href} answered ${status}`, { url: url.href, status });
      }
      const mediaType = (res.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
      if (!opts.anyContentType && !PAGE_TYPES.has(mediaType)) {
        res.destroy();
        throw new WebFetchError("unsupported_type", `${url.href} is ${mediaType || "of no type"}`, {
          url: url.href,
        });
      }
      const body = await readBody(res, url, opts.maxBytes, options.truncate ?? false, controller.signal);
      return {
        url: url.href,
        mediaType,
        text: decode(body.bytes, res.headers["content-type"] ?? "", mediaType),
        truncated: body.truncated,
      };
    }
  } catch (err) {
    if (err instanceof WebFetchError) throw err;
    if (controller.signal.aborted) throw controller.signal.reason;
    throw new WebFetchError("unreachable", `${url.href} could not be reached`, { url: url.href, cause: err });
  } finally {
    clearTimeout(timer);
  }
}

function parseHttpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebFetchError("invalid_url", `${raw} is not a web address`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new WebFetchError("invalid_url", `${url.protocol} addresses are not fetched`);
  }
  return url;
}

export function bareHost(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

/** Resolves the URL's host and checks every address; the one to connect to (IPv4 first). */
export async function checkedTarget(
  url: URL,
  network: ScraperNetwork,
  signal: AbortSignal,
): Promise<ResolvedAddress> {
  const hostName = bareHost(url);
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  const addresses = await resolveHost(hostName, { servers: network.dnsServers, signal });
  // All of them, not only the one we pick: a name that mixes a public and a private address is
  // refused rather than trusted for its public half.
  for (const { address } of addresses) {
    const check = checkAddress(hostName, address, port, network.allowedPrivate);
    if (!check.allowed) {
      throw new WebFetchError("forbidden_address", `${hostName} is ${address}, a ${check.reason} address`, {
        url: url.href,
      });
    }
  }
  return addresses.find((a) => a.family === 4) ?? addresses[0];
}

/** The request's own DNS lookup, answering the address we checked and nothing else. */
export function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as unknown as LookupFunction;
}

function request(
  url: URL,
  target: ResolvedAddress,
  connectTimeoutMs: number,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const hostName = bareHost(url);
  const secure = url.protocol === "https:";
  return new Promise((resolve, reject) => {
    let connectTimer: NodeJS.Timeout | undefined;
    const req = (secure ? https : http).request({
      protocol: url.protocol,
      // The name, not the address: Host header and TLS (SNI, certificate) are the site's.
      host: hostName,
      port: Number(url.port) || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method: "GET",
      headers: {
        "User-Agent": SCRAPER_USER_AGENT,
        Accept: "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1",
        "Accept-Encoding": "gzip, deflate, br",
      },
      // A fresh connection each time: a pooled socket would skip the pinned lookup.
      agent: false,
      lookup: pinnedLookup(target),
      servername: isIP(hostName) ? undefined : hostName,
      signal,
    });
    req.on("socket", (socket) => {
      if (!socket.connecting) return;
      connectTimer = setTimeout(
        () =>
          req.destroy(new WebFetchError("timeout", `${url.host}: no connection in ${connectTimeoutMs} ms`)),
        connectTimeoutMs,
      );
      socket.once("connect", () => clearTimeout(connectTimer));
    });
    req.on("response", (res) => {
      clearTimeout(connectTimer);
      resolve(res);
    });
    req.on("error", (err) => {
      clearTimeout(connectTimer);
      reject(err);
    });
    req.end();
  });
}

/** The body, decompressed, at most maxBytes of it: streamed and cut off, never buffered whole. */
async function readBody(
  res: IncomingMessage,
  url: URL,
  maxBytes: number,
  truncate: boolean,
  signal: AbortSignal,
): Promise<{ bytes: Buffer; truncated: boolean }> {
  const tooLarge = () =>
    new WebFetchError("too_large", `${url.href} is over ${maxBytes} bytes`, { url: url.href });
  const encoding = String(res.headers["content-encoding"] ?? "identity")
    .trim()
    .toLowerCase();
  const declared = Number(res.headers["content-length"]);
  if (!truncate && (encoding === "identity" || encoding === "") && declared > maxBytes) {
    res.destroy();
    throw tooLarge();
  }
  const stream = decompressed(res, encoding, url);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (size + chunk.length > maxBytes) {
        if (!truncate) throw tooLarge();
        chunks.push(chunk.subarray(0, maxBytes - size));
        return { bytes: Buffer.concat(chunks), truncated: true };
      }
      chunks.push(chunk);
      size += chunk.length;
    }
    // A body that ended early (the connection closed mid-way) is not the page.
    if (!res.complete) throw signal.aborted ? signal.reason : new Error("the answer ended early");
    return { bytes: Buffer.concat(chunks), truncated: false };
  } finally {
    stream.destroy();
    res.destroy();
  }
}

function decompressed(res: IncomingMessage, encoding: string, url: URL): Readable {
  const make =
    encoding === "gzip" || encoding === "x-gzip"
      ? zlib.createGunzip
      : encoding === "deflate"
        ? zlib.createInflate
        : encoding === "br"
          ? zlib.createBrotliDecompress
          : undefined;
  if (!make) {
    if (encoding === "identity" || encoding === "") return res;
    res.destroy();
    throw new WebFetchError("unsupported_type", `${url.href} is encoded as ${encoding}`, { url: url.href });
  }
  const out = res.pipe(make());
  // A failure of the connection must end the decompressed stream too.
  res.on("error", (err) => out.destroy(err));
  res.on("aborted", () => out.destroy(new Error("aborted")));
  return out;
}

/** The charset of the Content-Type, else of an HTML <meta> near the top, else UTF-8. */
function decode(bytes: Buffer, contentType: string, mediaType: string): string {
  const declared = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1];
  const meta =
    !declared && mediaType !== "text/plain"
      ? /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(bytes.subarray(0, 2048).toString("latin1"))?.[1]
      : undefined;
  try {
    return new TextDecoder(declared ?? meta ?? "utf-8").decode(bytes);
  } catch {
    // An unknown charset label: UTF-8 reads most pages anyway.
    return new TextDecoder().decode(bytes);
  }
}
