import "server-only";
import { randomBytes, timingSafeEqual } from "node:crypto";
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import https from "node:https";
import net, { type AddressInfo, isIP, type Socket } from "node:net";
import { Readable } from "node:stream";
import { FUNCTION_DATA_CALLS_AT_ONCE } from "@/lib/constants";
import { WebFetchError } from "@/lib/context/web/fetch-error";
import { bareHost, checkedTarget, pinnedLookup } from "@/lib/context/web/guarded-fetch";
import type { ScraperNetwork } from "@/lib/context/web/scraper-config";

/** Until the outside server's TCP (and TLS) connection is open. */
const CONNECT_TIMEOUT_MS = 5_000;

/** The header the harness's data door sends the process's data token in (never to the outside). */
export const DATA_TOKEN_HEADER = "x-function-data-token";

/** The path a data call goes to; any other path is the egress to the target it names. */
export const DATA_PATH_PREFIX = "/__data/";

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
  DATA_TOKEN_HEADER,
]);

/** Serves one data call as `appId`'s service role (data-gateway.ts); `target` is the raw path. */
export type DataServer = (appId: string, target: string, request: Request) => Promise<Response>;

/**
 * One function process's own way into the gateway: a loopback port that only this process is
 * allowed to connect to (Deno's --allow-net names it), and a token only this process was given.
 */
export type GatewayDoor = { port: number; token: string; close(): void };

export type EgressGateway = {
  /** A door for one process of this app's function; closed when the process ends. */
  open(appId: string): Promise<GatewayDoor>;
  close(): Promise<void>;
};

type DoorState = { appId: string; token: Buffer; inFlight: number; waiting: (() => void)[] };

/**
 * The one door from a function's process to the network. Deno's --allow-net works by host name
 * and port and resolves names itself, so it cannot refuse a name that resolves (or rebinds) to a
 * private address; the process is therefore allowed only its own loopback port of this gateway
 * (its door: one port per process, so a connection says which process, hence which app, made it). A request
 * names its target in `x-egress-target` (the harness's fetch does this); the gateway resolves the
 * name itself, refuses it unless every address is public (the scraper's address policy: private,
 * loopback, link-local, unique-local, metadata... refused; metadata always), then connects to the
 * address it checked, with TLS verified against the name. Redirects come back to the harness,
 * whose next request is checked again. A refusal answers 403 with `x-egress-refused: <reason>`.
 *
 * A request to DATA_PATH_PREFIX is instead a call of the function's data client (`@app/client`),
 * served by `options.data` as the door's app's service role when it carries the door's token.
 *
 * `network.allowedPrivate` is empty in production; tests pass their own loopback servers there.
 */
export async function startEgressGateway(
  network: ScraperNetwork,
  options: { data?: DataServer; dataCallsAtOnce?: number } = {},
): Promise<EgressGateway> {
  const atOnce = options.dataCallsAtOnce ?? FUNCTION_DATA_CALLS_AT_ONCE;
  // Which door each connection came through: the only thing that says which app is calling.
  const doorOf = new WeakMap<Socket, DoorState>();
  const server = http.createServer((req, res) => {
    const door = doorOf.get(req.socket);
    if (!door) return refuse(res, "unknown door");
    if (req.url?.startsWith(DATA_PATH_PREFIX)) {
      serveData(req, res, door, options.data, atOnce).catch(() => refuse(res, "data call failed"));
      return;
    }
    forward(req, res, network).catch(() => refuse(res, "unreachable"));
  });
  // A function's slow upload or download is bounded by its own wall time, not here.
  server.requestTimeout = 0;
  const doors = new Set<() => void>();
  return {
    async open(appId) {
      const token = randomBytes(24).toString("hex");
      const state: DoorState = { appId, token: Buffer.from(token), inFlight: 0, waiting: [] };
      const sockets = new Set<Socket>();
      const listener = net.createServer((socket) => {
        sockets.add(socket);
        socket.once("close", () => sockets.delete(socket));
        doorOf.set(socket, state);
        server.emit("connection", socket);
      });
      await new Promise<void>((resolve, reject) => {
        listener.once("error", reject);
        listener.listen(0, "127.0.0.1", () => resolve());
      });
      listener.unref();
      const close = () => {
        doors.delete(close);
        listener.close();
        for (const socket of sockets) socket.destroy();
      };
      doors.add(close);
      return { port: (listener.address() as AddressInfo).port, token, close };
    },
    async close() {
      for (const close of [...doors]) close();
      server.closeAllConnections();
    },
  };
}

/**
 * A data call: allowed only with the door's own token (another local process that finds the port
 * has none), and served for the door's app alone, whatever the request names.
 */
async function serveData(
  req: IncomingMessage,
  res: ServerResponse,
  door: DoorState,
  data: DataServer | undefined,
  atOnce: number,
): Promise<void> {
  const sent = Buffer.from(String(req.headers[DATA_TOKEN_HEADER] ?? ""));
  if (!data || sent.length !== door.token.length || !timingSafeEqual(sent, door.token)) {
    req.resume();
    return refuse(res, "not this door's token");
  }
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  const length = req.headers["content-length"];
  const request = new Request("http://gateway.invalid/", {
    method,
    headers: length === undefined ? {} : { "content-length": length },
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    duplex: "half",
  } as RequestInit);
  // A few at a time per process; the others wait (the process's wall time bounds the wait). A
  // call that ends hands its slot to the next waiting one.
  if (door.inFlight >= atOnce) await new Promise<void>((resolve) => door.waiting.push(resolve));
  else door.inFlight++;
  const release = () => {
    const next = door.waiting.shift();
    if (next) next();
    else door.inFlight--;
  };
  // Its process ended while it waited: nothing of it runs after the function is gone.
  if (req.socket.destroyed) return release();
  let answer: Response;
  try {
    answer = await data(door.appId, req.url ?? "/", request);
  } finally {
    release();
  }
  if (!hasBody) req.resume();
  res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
  res.end(Buffer.from(await answer.arrayBuffer()));
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
