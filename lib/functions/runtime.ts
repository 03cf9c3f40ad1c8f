import "server-only";
import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import {
  FUNCTION_DATA_MB,
  FUNCTION_HEAP_MB,
  FUNCTION_IDLE_MS,
  FUNCTION_PROCESS_CPU_SECONDS,
  FUNCTION_REQUEST_BODY_MAX,
  FUNCTION_RESPONSE_BODY_MAX,
  FUNCTION_START_MS,
  FUNCTION_STARTS_AT_ONCE,
  FUNCTION_WALL_MS,
  FUNCTION_WARM_MAX,
  SECRET_KEY_PATTERN,
} from "@/lib/constants";
import { hostPortKey } from "@/lib/context/web/address-policy";
import { type ScraperNetwork, scraperNetworkFromEnv } from "@/lib/context/web/scraper-config";
import { type MessageKey, messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { writeFunctionBundle } from "./bundle";
import { serveFunctionData } from "./data-gateway";
import { type EgressGateway, startEgressGateway } from "./egress-gateway";
import { FunctionProcess, FunctionStartError } from "./function-process";

export type FunctionLimits = {
  wallMs: number;
  startMs: number;
  heapMb: number;
  dataMb: number;
  processCpuSeconds: number;
  requestBodyMax: number;
  responseBodyMax: number;
  idleMs: number;
  warmMax: number;
  startsAtOnce: number;
};

export const DEFAULT_FUNCTION_LIMITS: FunctionLimits = {
  wallMs: FUNCTION_WALL_MS,
  startMs: FUNCTION_START_MS,
  heapMb: FUNCTION_HEAP_MB,
  dataMb: FUNCTION_DATA_MB,
  processCpuSeconds: FUNCTION_PROCESS_CPU_SECONDS,
  requestBodyMax: FUNCTION_REQUEST_BODY_MAX,
  responseBodyMax: FUNCTION_RESPONSE_BODY_MAX,
  idleMs: FUNCTION_IDLE_MS,
  warmMax: FUNCTION_WARM_MAX,
  startsAtOnce: FUNCTION_STARTS_AT_ONCE,
};

/** A call as it reached us: the method, the path and query (or a whole URL), headers, the body. */
export type FunctionRequest = {
  method: string;
  url: string;
  headers?: Record<string, string> | Headers;
  body?: Uint8Array | string | null;
};

/** The function's answer, or ours when it could not answer (a JSON error body with a message). */
export type FunctionResponse = {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array<ArrayBuffer>;
};

export type CallFunctionInput = {
  appId: string;
  /** The function's file name under functions/ ("stripe-webhook.ts"). */
  name: string;
  /** The deployed code: a module that calls Deno.serve(handler) or exports a default handler. */
  code: string;
  /** The app's secrets, each given to the function as an environment variable. */
  secrets: Record<string, string>;
  request: FunctionRequest;
};

export type FunctionRuntimeOptions = {
  limits?: Partial<FunctionLimits>;
  /**
   * FOR TESTS ONLY: host:port pairs the egress gateway lets functions reach although private (the
   * tests' loopback servers). An option of a runtime a test creates, never read from the
   * environment: the runtime production uses (callFunction) has none.
   */
  testOnlyEgressAllow?: string[];
};

export type FunctionRuntime = {
  /** The directory of this runtime's bundles (one directory per app, function and code). */
  readonly root: string;
  call(input: CallFunctionInput): Promise<FunctionResponse>;
  /** The last lines the function's current process printed (its logs; never in ours). */
  logs(appId: string, name: string): string[];
  /** Stops every process and the gateway. */
  close(): Promise<void>;
};

// Request headers a function never sees: our session cookie (the public URL is on our origin),
// and the headers of one connection.
const REQUEST_HEADERS_DROPPED = new Set([
  "cookie",
  "host",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "te",
  "trailer",
  "content-length",
  "proxy-authorization",
]);

// Response headers a function may set. Not Set-Cookie: it would set cookies on our origin.
const RESPONSE_HEADERS_ALLOWED = new Set([
  "content-type",
  "content-language",
  "content-disposition",
  "content-encoding",
  "cache-control",
  "etag",
  "expires",
  "last-modified",
  "location",
  "retry-after",
  "vary",
  "www-authenticate",
]);

function responseHeaderAllowed(name: string): boolean {
  return (
    RESPONSE_HEADERS_ALLOWED.has(name) ||
    name.startsWith("access-control-") ||
    (name.startsWith("x-") && !name.startsWith("x-function-"))
  );
}

type Warm = {
  version: string;
  process: Promise<FunctionProcess>;
  /** What it was started with: a call with these very code and secrets needs no hashing. */
  code: string;
  secrets: CallFunctionInput["secrets"];
};

/** A runtime: its egress gateway, its bundles' directory and its warm processes. */
export function createFunctionRuntime(options: FunctionRuntimeOptions = {}): FunctionRuntime {
  const limits = { ...DEFAULT_FUNCTION_LIMITS, ...options.limits };
  const root = mkdtempSync(path.join(os.tmpdir(), "space-functions-"));
  const denoDir = path.join(root, ".deno");
  const allowedPrivate = new Set(
    (options.testOnlyEgressAllow ?? []).map((entry) => {
      const at = entry.lastIndexOf(":");
      return hostPortKey(entry.slice(0, at).replace(/^\[|\]$/g, ""), Number(entry.slice(at + 1)));
    }),
  );
  let gateway: Promise<EgressGateway> | undefined;
  const warm = new Map<string, Warm>();
  // Each function's latest process, even ended: its output stays readable as the function's logs.
  const latest = new Map<string, FunctionProcess>();
  const reaper = setInterval(() => reap(), Math.max(1000, Math.min(limits.idleMs / 2, 30_000)));
  reaper.unref();

  // A few starts at a time: a burst of cold calls to many functions must not start them all at once.
  let starting = 0;
  const waiting: (() => void)[] = [];
  async function startSlot<T>(start: () => Promise<T>): Promise<T> {
    if (starting >= limits.startsAtOnce) await new Promise<void>((r) => waiting.push(r));
    starting++;
    try {
      return await start();
    } finally {
      starting--;
      waiting.shift()?.();
    }
  }

  function network(): ScraperNetwork {
    // Who resolves names is the operator's (SCRAPER_DNS_SERVERS); which private hosts the scraper
    // may read is not: functions are builders' code, they reach no private host.
    return { dnsServers: scraperNetworkFromEnv().dnsServers, allowedPrivate };
  }

  function reap(): void {
    for (const [key, entry] of warm) {
      entry.process
        .then((p) => {
          if (!p.alive || (p.inFlight === 0 && Date.now() - p.lastUsed > limits.idleMs)) {
            p.kill();
            if (warm.get(key) === entry) warm.delete(key);
          }
        })
        .catch(() => {
          if (warm.get(key) === entry) warm.delete(key);
        });
    }
  }

  async function evictBeyondMax(): Promise<void> {
    if (warm.size <= limits.warmMax) return;
    const settled = await Promise.all(
      [...warm].map(async ([key, entry]) => ({ key, entry, p: await entry.process.catch(() => undefined) })),
    );
    const idle = settled
      .filter((s) => !s.p || s.p.inFlight === 0)
      .sort((a, b) => (a.p?.lastUsed ?? 0) - (b.p?.lastUsed ?? 0));
    for (const s of idle.slice(0, warm.size - limits.warmMax)) {
      s.p?.kill();
      if (warm.get(s.key) === s.entry) warm.delete(s.key);
    }
  }

  async function processFor(input: CallFunctionInput): Promise<FunctionProcess> {
    const key = `${input.appId}\0${input.name}`;
    const current = warm.get(key);
    // A warm call (lib/functions/public-call.ts hands the same code and secrets objects while
    // they are current): its process, without hashing the code and secrets again.
    if (current && current.code === input.code && current.secrets === input.secrets) {
      const p = await current.process.catch(() => undefined);
      if (p?.alive) return p;
    }
    return processByVersion(input, key);
  }

  async function processByVersion(input: CallFunctionInput, key: string): Promise<FunctionProcess> {
    const bundle = await writeFunctionBundle(root, input.appId, input.name, input.code);
    const secretsHash = createHash("sha256")
      .update(JSON.stringify(Object.entries(input.secrets).sort()))
      .digest("hex");
    const version = `${bundle.hash}:${secretsHash}`;
    const current = warm.get(key);
    if (current && current.version === version) {
      const p = await current.process.catch(() => undefined);
      if (p?.alive) {
        // Equal code and secrets in other objects: the next call with these ones is a warm one.
        current.code = input.code;
        current.secrets = input.secrets;
        return p;
      }
      if (warm.get(key) === current) warm.delete(key);
    } else if (current) {
      // A new deploy or new secrets: the old process serves no new call.
      warm.delete(key);
      current.process.then((p) => p.kill()).catch(() => {});
    }
    const existing = warm.get(key);
    if (existing) return existing.process;
    gateway ??= startEgressGateway(network(), { data: serveFunctionData });
    const gw = await gateway;
    const entry: Warm = {
      version,
      code: input.code,
      secrets: input.secrets,
      process: startSlot(async () => {
        // The process's own door: its data calls are this app's, as long as the process lives.
        const door = await gw.open(input.appId);
        try {
          const proc = await FunctionProcess.start({
            bundleDir: bundle.dir,
            denoDir,
            gatewayPort: door.port,
            gatewayToken: door.token,
            secrets: input.secrets,
            limits,
          });
          void proc.exited.then(() => door.close());
          return proc;
        } catch (err) {
          door.close();
          throw err;
        }
      }),
    };
    warm.set(key, entry);
    entry.process.then(
      (p) => latest.set(key, p),
      (err) => {
        if (err instanceof FunctionStartError) latest.set(key, err.process);
        if (warm.get(key) === entry) warm.delete(key);
      },
    );
    void evictBeyondMax();
    return entry.process;
  }

  async function call(input: CallFunctionInput): Promise<FunctionResponse> {
    // Names become Deno's --allow-env list: a comma would grant another variable.
    for (const key of Object.keys(input.secrets)) {
      if (!SECRET_KEY_PATTERN.test(key)) throw new Error(`A secret's key is not a variable name: ${key}`);
    }
    const body = bodyBytes(input.request.body);
    if (body.length > limits.requestBodyMax) {
      return failure(413, "function/request-too-large", "functionRequestTooLarge", {
        max: sizeText(limits.requestBodyMax),
      });
    }
    let proc: FunctionProcess;
    try {
      proc = await processFor(input);
    } catch (err) {
      // Code that does not build (AppError), or a failure of ours (the gateway): not the function's.
      if (!(err instanceof FunctionStartError)) throw err;
      const ended = err.process.exitCode;
      return failure(
        500,
        "function/start-failed",
        ended === 71 ? "functionNoHandler" : "functionStartFailed",
      );
    }
    proc.inFlight++;
    proc.lastUsed = Date.now();
    try {
      return await send(proc, input.request, body);
    } finally {
      proc.inFlight--;
      proc.lastUsed = Date.now();
    }
  }

  function send(
    proc: FunctionProcess,
    request: FunctionRequest,
    body: Uint8Array,
  ): Promise<FunctionResponse> {
    return new Promise((resolve) => {
      let done = false;
      const finish = (res: FunctionResponse) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve(res);
      };
      const headers: Record<string, string> = {};
      for (const [name, value] of headerEntries(request.headers)) {
        const lower = name.toLowerCase();
        if (REQUEST_HEADERS_DROPPED.has(lower) || lower.startsWith("x-function-")) continue;
        headers[lower] = value;
      }
      headers["x-function-token"] = proc.token;
      const target = request.url.startsWith("/") ? request.url : new URL(request.url);
      if (typeof target !== "string") headers["x-function-url"] = target.href;
      headers["content-length"] = String(body.length);
      const req = http.request({
        host: "127.0.0.1",
        port: proc.port,
        method: request.method,
        path: typeof target === "string" ? target : `${target.pathname}${target.search}`,
        headers,
        agent: proc.agent,
      });
      const timer = setTimeout(() => {
        // The process may be stuck in a loop: it is ended, the next call starts another.
        proc.kill();
        req.destroy();
        finish(
          failure(504, "function/timeout", "functionTimedOut", { seconds: Math.round(limits.wallMs / 1000) }),
        );
      }, limits.wallMs);
      const crashed = async () => {
        // The connection broke: if the process ended (memory, CPU), say so.
        await Promise.race([proc.exited, new Promise((r) => setTimeout(r, 1000))]);
        finish(failure(502, "function/crashed", "functionCrashed"));
      };
      req.on("error", () => void crashed());
      req.on("response", (res) => {
        const failureKind = res.headers["x-function-failure"];
        // Sockets read into buffers of their own (never shared memory).
        const chunks: Buffer<ArrayBuffer>[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer<ArrayBuffer>) => {
          size += chunk.length;
          if (size > limits.responseBodyMax) {
            res.destroy();
            req.destroy();
            finish(
              failure(502, "function/response-too-large", "functionResponseTooLarge", {
                max: sizeText(limits.responseBodyMax),
              }),
            );
            return;
          }
          chunks.push(chunk);
        });
        res.on("error", () => void crashed());
        res.on("end", () => {
          if (failureKind === "threw") return finish(failure(500, "function/error", "functionThrew"));
          if (failureKind === "no-response")
            return finish(failure(500, "function/no-response", "functionNoResponse"));
          const out: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) {
            if (value === undefined || !responseHeaderAllowed(name)) continue;
            out[name] = Array.isArray(value) ? value.join(", ") : value;
          }
          finish({
            status: res.statusCode ?? 502,
            headers: out,
            body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks),
          });
        });
      });
      req.end(body);
    });
  }

  return {
    root,
    call,
    logs(appId, name) {
      return latest.get(`${appId}\0${name}`)?.logs() ?? [];
    },
    async close() {
      clearInterval(reaper);
      const all = [...warm.values()];
      warm.clear();
      await Promise.all(
        all.map((e) =>
          e.process.then(
            (p) => {
              p.kill();
              return p.exited;
            },
            () => undefined,
          ),
        ),
      );
      if (gateway) await (await gateway).close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

function bodyBytes(body: FunctionRequest["body"]): Uint8Array {
  if (body == null) return new Uint8Array();
  return typeof body === "string" ? new TextEncoder().encode(body) : body;
}

function headerEntries(headers: FunctionRequest["headers"]): [string, string][] {
  if (!headers) return [];
  return headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;
}

function failure(
  status: number,
  code: string,
  key: MessageKey,
  vars: Record<string, string | number> = {},
): FunctionResponse {
  const message = fillTemplate(messages[key], vars);
  return {
    status,
    headers: { "content-type": "application/json" },
    body: new TextEncoder().encode(JSON.stringify({ error: { code, message } })),
  };
}

let shared: FunctionRuntime | undefined;

/** Runs one call of a space app's function in this server's runtime (processes are kept warm). */
export function callFunction(input: CallFunctionInput): Promise<FunctionResponse> {
  shared ??= createFunctionRuntime();
  return shared.call(input);
}
