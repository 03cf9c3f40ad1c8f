import "server-only";
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import https from "node:https";
import { type AddressInfo, isIP } from "node:net";
import { WebFetchError } from "@/lib/context/web/fetch-error";
import { bareHost, checkedTarget, pinnedLookup } from "@/lib/context/web/guarded-fetch";
import type { ScraperNetwork } from "@/lib/context/web/scraper-config";

/** Until the outside server's TCP (and TLS) connection is open. */
const CONNECT_TIMEOUT_MS = 5_000;

// Headers that belong to one connection, or to our hop, never forwarded.
const HOP_HEADERS = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
  "x-egress-target",
  "x-egress-refused",
]);

export type EgressGateway = { port: number; close(): Promise<void> };

/**
 * The one door from a function's process to the network. Deno's --allow-net works by host name
 * and port and resolves names itself, so it cannot refuse a name that resolves (or rebinds) to a
 * private address; the process is therefore allowed only this gateway's loopback port. A request
 * names its target in `x-egress-target` (the harness's fetch does this); the gateway resolves the
 * name itself, refuses it unless every address is public (the scraper's address policy: private,
 * loopback, link-local, unique-local, metadata... refused; metadata always), then connects to the
 * address it checked, with TLS verified against the name. Redirects come back to the harness,
 * whose next request is checked again. A refusal answers 403 with `x-egress-refused: <reason>`.
 *
 * `network.allowedPrivate` is empty in production; tests pass their own loopback servers there.
 */
export async function startEgressGateway(network: ScraperNetwork): Promise<EgressGateway> {
  const server = http.createServer((req, res) => {
    forward(req, res, network).catch(() => refuse(res, "unreachable"));
  });
  // A function's slow upload or download is bounded by its own wall time, not here.
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  server.unref();
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function refuse(res: ServerResponse, reason: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(403, { "x-egress-refused": reason, "content-type": "text/plain" });
  res.end(reason);
}

async function forward(req: IncomingMessage, res: ServerResponse, network: ScraperNetwork): Promise<void> {
  const raw = req.headers["x-egress-target"];
  let url: URL;
  try {
    url = new URL(String(raw));
  } catch {
    return refuse(res, "not a web address");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return refuse(res, `${url.protocol} is not allowed`);
  const controller = new AbortController();
  // The function went away (its call ended, its process was killed): stop the outside request.
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  let target: Awaited<ReturnType<typeof checkedTarget>>;
  try {
    target = await checkedTarget(url, network, controller.signal);
  } catch (err) {
    if (err instanceof WebFetchError && err.code === "forbidden_address") {
      return refuse(res, `${url.hostname} is not a public address`);
    }
    return refuse(res, `${url.hostname} does not resolve`);
  }
  const hostName = bareHost(url);
  const secure = url.protocol === "https:";
  const outbound = (secure ? https : http).request({
    protocol: url.protocol,
    host: hostName,
    port: Number(url.port) || (secure ? 443 : 80),
    path: `${url.pathname}${url.search}`,
    method: req.method,
    headers: forwardedHeaders(req.headers),
    // A fresh connection each time: a pooled socket would skip the pinned lookup.
    agent: false,
    lookup: pinnedLookup(target),
    servername: isIP(hostName) ? undefined : hostName,
    signal: controller.signal,
  });
  const connectTimer = setTimeout(() => outbound.destroy(new Error("connect timeout")), CONNECT_TIMEOUT_MS);
  outbound.on("socket", (socket) =>
    socket.once(secure ? "secureConnect" : "connect", () => clearTimeout(connectTimer)),
  );
  outbound.on("response", (answer) => {
    clearTimeout(connectTimer);
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardedHeaders(answer.headers));
    answer.pipe(res);
    answer.on("error", () => res.destroy());
  });
  outbound.on("error", () => {
    clearTimeout(connectTimer);
    refuse(res, `${url.host} could not be reached`);
  });
  req.pipe(outbound);
}

function forwardedHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    out[name] = value;
  }
  return out;
}
