import { APP_DATA_GLOBAL } from "./client-source";
import { DATA_PATH_PREFIX, DATA_TOKEN_HEADER } from "./egress-gateway";

// The module Deno starts for one function (harness.js in its bundle). It runs with the process's
// permissions only: read of its own directory, the app's secret names as environment, and the
// network only to two loopback ports (its own server's and its door of the egress gateway). Plain
// JavaScript, written to the bundle as it is.
//
// Arguments: its port, its door's port on the gateway, the line to print once it serves. The first
// line of stdin is JSON { token, gatewayToken, secrets }: the tokens and secrets never appear in
// the process's arguments or its initial environment (neither in `ps` nor in /proc/<pid>/environ),
// and a secret named like a loader variable (LD_PRELOAD) cannot change how Deno starts.
export const HARNESS_SOURCE = String.raw`
const DATA_GLOBAL = ${JSON.stringify(APP_DATA_GLOBAL)};
const DATA_PATH = ${JSON.stringify(DATA_PATH_PREFIX)};
const DATA_TOKEN_HEADER = ${JSON.stringify(DATA_TOKEN_HEADER)};
const [portArg, gatewayPortArg, readyLine] = Deno.args;

const stdin = Deno.stdin.readable.getReader();

async function readConfig() {
  const reader = stdin;
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (value) text += decoder.decode(value, { stream: true });
    const end = text.indexOf("\n");
    if (end >= 0) return JSON.parse(text.slice(0, end));
    if (done) return JSON.parse(text);
  }
}

const config = await readConfig();
// Our server keeps the other end of stdin open: when it ends, however it ends (even killed), the
// pipe closes and this process ends too, instead of serving on as an orphan.
(async () => {
  try {
    while (!(await stdin.read()).done);
  } catch {}
  Deno.exit(0);
})();
for (const [key, value] of Object.entries(config.secrets)) Deno.env.set(key, value);
const token = config.token;

// fetch goes through the egress gateway, which refuses private, loopback, link-local and
// metadata addresses. Replacing fetch is not what contains the function (the process can reach
// nothing but the gateway and itself): it lets ordinary fetch calls work through it.
const nativeFetch = globalThis.fetch;
const gateway = "http://127.0.0.1:" + gatewayPortArg + "/";
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

async function gatewayFetch(input, init) {
  const first = new Request(input, init);
  let url = first.url;
  let method = first.method;
  let body = method === "GET" || method === "HEAD" ? undefined : await first.arrayBuffer();
  for (let hops = 0; ; hops++) {
    const headers = new Headers(first.headers);
    headers.set("x-egress-target", url);
    const res = await nativeFetch(gateway, { method, headers, body, redirect: "manual", signal: first.signal });
    const refused = res.headers.get("x-egress-refused");
    if (refused) {
      await res.body?.cancel();
      throw new TypeError("fetch of " + url + " refused: " + refused);
    }
    const location = res.headers.get("location");
    if (REDIRECTS.has(res.status) && location && first.redirect !== "manual") {
      await res.body?.cancel();
      if (first.redirect === "error") throw new TypeError("fetch of " + url + " was redirected");
      if (hops >= 5) throw new TypeError("fetch of " + first.url + ": too many redirects");
      url = new URL(location, url).href;
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) {
        method = "GET";
        body = undefined;
      }
      continue;
    }
    const out = new Response(res.body, { status: res.status, statusText: res.statusText, headers: res.headers });
    Object.defineProperty(out, "url", { value: url });
    Object.defineProperty(out, "redirected", { value: hops > 0 });
    return out;
  }
}
globalThis.fetch = gatewayFetch;

// The data client ("@app/client", client-source.ts) calls the app's data through this, as the
// app's service role: the gateway knows the app by this process's door, and the token proves the
// call is this process's. The token stays here: it is in no Request the handler gets, in no
// environment variable, and never sent to an outside address.
const gatewayToken = config.gatewayToken;
Object.defineProperty(globalThis, Symbol.for(DATA_GLOBAL), {
  value: (method, path, body) => {
    const headers = { [DATA_TOKEN_HEADER]: gatewayToken };
    if (body !== undefined) headers["content-type"] = "application/json";
    return nativeFetch("http://127.0.0.1:" + gatewayPortArg + DATA_PATH + path, { method, headers, body });
  },
});

// The function registers its handler with Deno.serve (as on Base44 and Deno Deploy) or exports it
// (a function, or an object with fetch, as for "deno serve"). We serve it ourselves, on our port.
let handler;
const nativeServe = Deno.serve;
Deno.serve = (...args) => {
  const fn = args.find((a) => typeof a === "function") ?? args.find((a) => a && typeof a.handler === "function")?.handler;
  if (fn) handler = fn;
  return {
    finished: new Promise(() => {}),
    addr: { transport: "tcp", hostname: "127.0.0.1", port: Number(portArg) },
    shutdown: async () => {},
    ref() {},
    unref() {},
  };
};

let mod;
try {
  mod = await import("./function.js");
} catch (err) {
  console.error(err);
  Deno.exit(70);
}
if (!handler) {
  const d = mod.default;
  handler = typeof d === "function" ? d : typeof d?.fetch === "function" ? d.fetch.bind(d) : undefined;
}
if (!handler) {
  console.error("function-runtime: no handler");
  Deno.exit(71);
}

function failure(kind) {
  return new Response(null, { status: 500, headers: { "x-function-failure": kind } });
}

nativeServe(
  { hostname: "127.0.0.1", port: Number(portArg), onListen() { console.log(readyLine); } },
  async (req, info) => {
    if (req.headers.get("x-function-token") !== token) return new Response(null, { status: 403 });
    const headers = new Headers(req.headers);
    const publicUrl = headers.get("x-function-url") ?? req.url;
    headers.delete("x-function-token");
    headers.delete("x-function-url");
    // Of our connection to it (kept open between calls), not of the caller's.
    headers.delete("connection");
    const inner = new Request(publicUrl, { method: req.method, headers, body: req.body });
    try {
      const res = await handler(inner, info);
      return res instanceof Response ? res : failure("no-response");
    } catch (err) {
      console.error(err);
      return failure("threw");
    }
  },
);
`;
