import "server-only";
import http from "node:http";
import https from "node:https";
import { pipeline, Readable } from "node:stream";
import zlib from "node:zlib";

// A fetch for model calls that go out over node:http with keep-alive sockets, for the latency of
// a tool run's first word (bench/run-first-byte.ts). The global fetch (undici, wrapped by Next for
// its cache) writes a request's headers and its body in separate socket writes and runs each
// request through several layers of web streams and Next's tracing: ~1 ms more per model call
// on the servers measured, where a socket write is costly. Here the headers and the JSON body
// leave in one write. Only what the AI SDK's JSON calls use is handled (a URL, a string or byte
// body, headers, an abort signal); anything else - a Request, a form body, a redirect - is
// handed to the global fetch, so the behaviour stays fetch's.

/** Idle sockets are closed after 4 s (as undici does), before servers drop them (a reused dead socket fails). */
const IDLE_MS = 4000;
const agents = {
  "http:": new http.Agent({ keepAlive: true, timeout: IDLE_MS }),
  "https:": new https.Agent({ keepAlive: true, timeout: IDLE_MS }),
};

const REDIRECT = new Set([301, 302, 303, 307, 308]);
// Statuses whose answer has no body (Response refuses one).
const NO_BODY = new Set([101, 204, 205, 304]);

export const httpFetch: typeof fetch = async (input, init) => {
  const url = typeof input === "string" ? parseUrl(input) : input instanceof URL ? input : null;
  const body = init?.body;
  const plainBody =
    body === undefined || body === null || typeof body === "string" || body instanceof Uint8Array;
  if (!url || !(url.protocol in agents) || !plainBody) return fetch(input, init);

  const signal = init?.signal ?? undefined;
  if (signal?.aborted) throw signal.reason;
  const headers: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, name) => {
    headers[name] = value;
  });
  // As fetch: compressed answers are accepted (and inflated below).
  headers["accept-encoding"] ??= "gzip, deflate, br";
  const bytes = typeof body === "string" ? Buffer.from(body) : (body ?? undefined);
  if (bytes) headers["content-length"] = String(bytes.byteLength);

  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const mod = url.protocol === "https:" ? https : http;
    const req = mod.request(
      url,
      { method: init?.method ?? "GET", headers, agent: agents[url.protocol as keyof typeof agents], signal },
      resolve,
    );
    req.on("error", (err) =>
      // As fetch: the abort's reason, or a TypeError the AI SDK reads as "Cannot connect to API" (retryable).
      reject(signal?.aborted ? signal.reason : new TypeError("fetch failed", { cause: err })),
    );
    req.end(bytes);
  });

  const status = res.statusCode ?? 0;
  if (REDIRECT.has(status) && init?.redirect !== "manual") {
    // Rare for a model endpoint: fetch's own rules (method changes, limits) decide.
    res.resume();
    return fetch(input, init);
  }
  const responseHeaders = new Headers();
  for (let i = 0; i < res.rawHeaders.length; i += 2) {
    responseHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  }
  if (NO_BODY.has(status) || init?.method === "HEAD") {
    res.resume();
    return new Response(null, { status, statusText: res.statusMessage, headers: responseHeaders });
  }
  return new Response(Readable.toWeb(inflated(res)) as ReadableStream<Uint8Array>, {
    status,
    statusText: res.statusMessage,
    headers: responseHeaders,
  });
};

function parseUrl(s: string): URL | null {
  try {
    return new URL(s);
  } catch {
    return null;
  }
}

/** The answer's bytes as sent before any content-encoding (as fetch hands them). */
function inflated(res: http.IncomingMessage): Readable {
  const encoding = res.headers["content-encoding"]?.trim().toLowerCase();
  const inflate =
    encoding === "gzip" || encoding === "x-gzip"
      ? zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH })
      : encoding === "deflate"
        ? zlib.createInflate({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH })
        : encoding === "br"
          ? zlib.createBrotliDecompress({
              flush: zlib.constants.BROTLI_OPERATION_FLUSH,
              finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
            })
          : null;
  if (!inflate) return res;
  // An error or a cancel of either side (a dropped connection, bad data, the reader gone) ends both.
  return pipeline(res, inflate, () => {});
}
