import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { FUNCTION_WALL_MS } from "@/lib/constants";
import { type CallFunctionInput, createFunctionRuntime, type FunctionRuntime } from "@/lib/functions/runtime";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";

// The contained runtime of space apps' functions: a benign function of one app answers (its own
// secret, a fetch of an allowed server) while a hostile function of another app tries to read
// files, other apps' secrets, private addresses, to spawn, loop, allocate and flood, and is
// contained each time. A canary secret of the first app never shows in the second's answers, its
// logs or ours. Deno starts in a few hundred ms on a quiet machine: timeouts are generous.

const SLOW = 120_000;
const CANARY = `canary-${Math.random().toString(36).slice(2)}-value`;
const APP_A = "00000000-0000-4000-8000-00000000000a";
const APP_B = "00000000-0000-4000-8000-00000000000b";

const BENIGN = `
Deno.serve(async (req: Request): Promise<Response> => {
  const url = new URL(req.url);
  if (url.pathname === "/call-api") {
    // Uses its own secret against an outside API (here the test's "public" server).
    const res = await fetch(url.searchParams.get("api")!, {
      method: "POST",
      headers: { authorization: "Bearer " + Deno.env.get("CANARY_KEY"), "content-type": "application/json" },
      body: JSON.stringify({ hello: "world" }),
    });
    return Response.json({ status: res.status, answer: await res.json(), redirected: res.redirected });
  }
  return new Response(JSON.stringify({ ok: true, method: req.method, path: url.pathname, query: url.search, body: await req.text(), cookie: req.headers.get("cookie"), custom: req.headers.get("x-custom") }), {
    headers: { "content-type": "application/json", "set-cookie": "session=stolen", "x-app": "a" },
  });
});
`;

const HOSTILE = `
const json = (v: unknown, status = 200) => Response.json(v, { status });
const attempt = async (work: () => Promise<unknown>) => {
  try {
    return json({ leaked: await work() });
  } catch (err) {
    return json({ refused: (err as Error).name, message: String((err as Error).message) });
  }
};

export default async function handler(req: Request): Promise<Response> {
  const url = new URL(req.url);
  const q = (name: string) => url.searchParams.get(name) ?? "";
  switch (url.pathname) {
    case "/ok": return json({ ok: true });
    case "/read": return attempt(() => Deno.readTextFile(q("path")));
    case "/list": return attempt(async () => { const names = []; for await (const e of Deno.readDir(q("path"))) names.push(e.name); return names; });
    case "/import": return attempt(async () => JSON.stringify(await import(q("path"))));
    case "/write": return attempt(() => Deno.writeTextFile(q("path"), "x"));
    case "/env": return attempt(async () => Deno.env.get(q("name")));
    case "/env-all": return attempt(async () => Deno.env.toObject());
    case "/fetch": return attempt(async () => { const r = await fetch(q("to")); return { status: r.status, text: await r.text() }; });
    case "/connect": return attempt(async () => { const c = await Deno.connect({ hostname: q("host"), port: Number(q("port")) }); c.close(); return "connected"; });
    case "/spawn": return attempt(async () => new TextDecoder().decode((await new Deno.Command("/bin/sh", { args: ["-c", "id"] }).output()).stdout));
    case "/ffi": return attempt(async () => String(Deno.dlopen("libc.so.6", {})));
    case "/sys": return attempt(async () => Deno.hostname());
    case "/loop": for (;;) {}
    case "/heap": { const keep: number[][] = []; for (let i = 0; ; i++) keep.push(new Array(10_000_000).fill(i)); }
    case "/buffers": {
      // 2 GB in 100 MB buffers, each written (so really allocated): outside V8's heap.
      const keep: Uint8Array[] = [];
      for (let i = 0; i < 20; i++) keep.push(new Uint8Array(100 * 1024 * 1024).fill(1));
      return json({ allocated: keep.length });
    }
    case "/flood": {
      // 1 GB, streamed in 1 MB chunks.
      const chunk = new Uint8Array(1024 * 1024).fill(65);
      let sent = 0;
      return new Response(new ReadableStream({
        pull(c) { if (sent++ >= 1024) c.close(); else c.enqueue(chunk); },
      }));
    }
  }
  return json({ unknown: url.pathname }, 404);
}
`;

type Json = Record<string, unknown>;

function listen(handler: http.RequestListener): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer(handler);
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ server, port: (server.address() as AddressInfo).port })),
  );
}

describe("the function runtime", () => {
  let runtime: FunctionRuntime;
  let publicApi: { server: http.Server; port: number };
  let privateService: { server: http.Server; port: number };
  let privateHits = 0;
  const apiAuthorizations: string[] = [];
  const seen: string[] = [];
  const ourOutput: string[] = [];

  const benign = (request: CallFunctionInput["request"]) =>
    runtime.call({
      appId: APP_A,
      name: "benign.ts",
      code: BENIGN,
      secrets: { CANARY_KEY: CANARY, SHARED: CANARY },
      request,
    });
  const hostile = async (pathAndQuery: string) => {
    const res = await runtime.call({
      appId: APP_B,
      name: "hostile.ts",
      code: HOSTILE,
      secrets: { OWN_KEY: "b-own", SHARED: "b-shared" },
      request: { method: "GET", url: pathAndQuery },
    });
    const text = new TextDecoder().decode(res.body);
    seen.push(text);
    return {
      status: res.status,
      text,
      json: (() => {
        try {
          return JSON.parse(text) as Json;
        } catch {
          return {};
        }
      })(),
    };
  };
  const benignStillAnswers = async () => {
    const res = await benign({ method: "GET", url: "/ping" });
    expect(res.status).toBe(200);
    expect(JSON.parse(new TextDecoder().decode(res.body))).toMatchObject({ ok: true, path: "/ping" });
  };

  beforeAll(async () => {
    for (const method of ["log", "info", "warn", "error", "debug"] as const) {
      const original = console[method];
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        ourOutput.push(args.map(String).join(" "));
        original(...args);
      });
    }
    publicApi = await listen((req, res) => {
      apiAuthorizations.push(String(req.headers.authorization));
      if (req.url === "/moved") {
        res.writeHead(307, { location: "/api" });
        res.end();
        return;
      }
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ received: JSON.parse(body || "null"), path: req.url }));
      });
    });
    privateService = await listen((_req, res) => {
      privateHits++;
      res.end(`private data ${CANARY}`);
    });
    runtime = createFunctionRuntime({
      // The production limits: a full heap takes several seconds on a busy machine, within the wall time.
      // The test's stand-in for a public API listens on loopback: allowed explicitly, this one only.
      testOnlyEgressAllow: [`127.0.0.1:${publicApi.port}`],
    });
    await benignStillAnswers();
  }, SLOW);

  afterAll(async () => {
    await runtime?.close();
    publicApi?.server.close();
    privateService?.server.close();
    vi.restoreAllMocks();
  });

  it(
    "runs a function: method, path, query and body in; status, allowed headers and body out",
    async () => {
      const res = await benign({
        method: "POST",
        url: "/hook?x=1",
        headers: { "content-type": "text/plain", cookie: "our-session=secret", "x-custom": "yes" },
        body: "payload",
      });
      expect(res.status).toBe(200);
      expect(JSON.parse(new TextDecoder().decode(res.body))).toEqual({
        ok: true,
        method: "POST",
        path: "/hook",
        query: "?x=1",
        body: "payload",
        // Our session cookie never reaches a function.
        cookie: null,
        custom: "yes",
      });
      expect(res.headers["x-app"]).toBe("a");
      // A function cannot set cookies on our origin.
      expect(res.headers["set-cookie"]).toBeUndefined();
    },
    SLOW,
  );

  it(
    "uses its own secret to call an allowed outside server, redirects followed",
    async () => {
      const res = await benign({
        method: "GET",
        url: `/call-api?api=http://127.0.0.1:${publicApi.port}/moved`,
      });
      const answer = JSON.parse(new TextDecoder().decode(res.body));
      expect(answer).toEqual({
        status: 200,
        answer: { received: { hello: "world" }, path: "/api" },
        redirected: true,
      });
      expect(apiAuthorizations.at(-1)).toBe(`Bearer ${CANARY}`);
    },
    SLOW,
  );

  it(
    "takes a GET that comes with a body (its body dropped) and a HEAD",
    async () => {
      const get = await benign({ method: "GET", url: "/odd", body: "ignored" });
      expect(get.status).toBe(200);
      expect(JSON.parse(new TextDecoder().decode(get.body))).toMatchObject({ method: "GET", body: "" });
      const head = await benign({ method: "HEAD", url: "/head" });
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
    },
    SLOW,
  );

  it(
    "refuses a request body over the cap",
    async () => {
      const res = await benign({ method: "POST", url: "/big", body: new Uint8Array(2 * 1024 * 1024) });
      expect(res.status).toBe(413);
      expect(new TextDecoder().decode(res.body)).toContain(
        fillTemplate(messages.functionRequestTooLarge, { max: "1 MB" }),
      );
    },
    SLOW,
  );

  it(
    "reads no file outside its own bundle: /etc/passwd, the project's .env, another app's bundle",
    async () => {
      const benignBundle = readdirSync(runtime.root)
        .map((d) => path.join(runtime.root, d, "function.js"))
        .find((f) => {
          try {
            return readFileSync(f, "utf8").includes("/call-api");
          } catch {
            return false;
          }
        });
      expect(benignBundle).toBeDefined();
      for (const file of [
        "/etc/passwd",
        path.resolve(".env"),
        benignBundle as string,
        "/proc/self/environ",
      ]) {
        const res = await hostile(`/read?path=${encodeURIComponent(file)}`);
        expect(res.json).toMatchObject({ refused: "NotCapable" });
      }
      expect((await hostile(`/list?path=${encodeURIComponent(runtime.root)}`)).json).toMatchObject({
        refused: "NotCapable",
      });
      // Nor through an import made while running (Deno checks those; static ones are refused when built).
      expect(
        (await hostile(`/import?path=${encodeURIComponent(benignBundle as string)}`)).json,
      ).toMatchObject({
        refused: "TypeError",
      });
      expect((await hostile("/write?path=/tmp/function-was-here")).json).toMatchObject({
        refused: "NotCapable",
      });
      await benignStillAnswers();
    },
    SLOW,
  );

  it(
    "refuses code that imports a file, a package or a URL when it is built",
    async () => {
      for (const spec of ["/etc/passwd", "../other.ts", "npm:stripe", "https://example.com/x.ts"]) {
        await expect(
          runtime.call({
            appId: APP_B,
            name: "imports.ts",
            code: `import x from ${JSON.stringify(spec)}; Deno.serve(() => new Response(String(x)));`,
            secrets: {},
            request: { method: "GET", url: "/" },
          }),
        ).rejects.toMatchObject({
          status: 400,
          message: fillTemplate(messages.functionImportsRefused, { specifier: spec }),
        });
      }
    },
    SLOW,
  );

  it(
    "sees its own secrets only: not another app's, not ours",
    async () => {
      expect((await hostile("/env?name=OWN_KEY")).json).toEqual({ leaked: "b-own" });
      // The same name in two apps: each its own value.
      expect((await hostile("/env?name=SHARED")).json).toEqual({ leaked: "b-shared" });
      for (const name of ["CANARY_KEY", "DATABASE_URL", "AUTH_SECRET", "SECRETS_KEY", "PATH", "HOME"]) {
        expect((await hostile(`/env?name=${name}`)).json).toMatchObject({ refused: "NotCapable" });
      }
      expect((await hostile("/env-all")).json).toMatchObject({ refused: "NotCapable" });
      await benignStillAnswers();
    },
    SLOW,
  );

  it(
    "reaches no private, loopback, link-local or metadata address, by address or by name",
    async () => {
      const port = privateService.port;
      const targets = [
        `http://127.0.0.1:${port}/`,
        `http://[::1]:${port}/`,
        `http://localhost:${port}/`,
        "http://169.254.169.254/latest/meta-data/",
        "http://metadata.google.internal/computeMetadata/v1/",
        "http://10.0.0.1/",
        "http://192.168.1.1/",
        `http://0.0.0.0:${port}/`,
        `http://[::ffff:127.0.0.1]:${port}/`,
      ];
      for (const to of targets) {
        const res = await hostile(`/fetch?to=${encodeURIComponent(to)}`);
        expect(res.json.leaked, to).toBeUndefined();
        expect(res.json.refused, to).toBe("TypeError");
      }
      // Around the gateway: raw connections anywhere but the gateway are not permitted.
      for (const [host, p] of [
        ["127.0.0.1", port],
        ["127.0.0.1", 54339],
        ["169.254.169.254", 80],
        ["example.com", 443],
      ] as const) {
        expect((await hostile(`/connect?host=${host}&port=${p}`)).json).toMatchObject({
          refused: "NotCapable",
        });
      }
      expect(privateHits).toBe(0);
      await benignStillAnswers();
    },
    SLOW,
  );

  it(
    "spawns no process, loads no library, reads nothing of the system",
    async () => {
      expect((await hostile("/spawn")).json).toMatchObject({ refused: "NotCapable" });
      expect((await hostile("/ffi")).json).toMatchObject({ refused: "NotCapable" });
      expect((await hostile("/sys")).json).toMatchObject({ refused: "NotCapable" });
      await benignStillAnswers();
    },
    SLOW,
  );

  it(
    "an endless loop is stopped at the wall time, with a message; the next call starts afresh",
    async () => {
      const [looped] = await Promise.all([hostile("/loop"), benignStillAnswers()]);
      expect(looped.status).toBe(504);
      expect(looped.json).toEqual({
        error: {
          code: "function/timeout",
          message: fillTemplate(messages.functionTimedOut, { seconds: FUNCTION_WALL_MS / 1000 }),
        },
      });
      await benignStillAnswers();
      expect((await hostile("/ok")).json).toEqual({ ok: true });
    },
    SLOW,
  );

  it(
    "filling the heap ends the process at the heap limit",
    async () => {
      const res = await hostile("/heap");
      expect(res.status).toBe(502);
      expect(res.json).toEqual({ error: { code: "function/crashed", message: messages.functionCrashed } });
      await benignStillAnswers();
      expect((await hostile("/ok")).json).toEqual({ ok: true });
    },
    SLOW,
  );

  it(
    "2 GB of buffers outside the heap are refused at the data limit",
    async () => {
      const res = await hostile("/buffers");
      // The allocation fails inside the function (a RangeError it does not catch), well before 2 GB.
      expect(res.json).toEqual({ error: { code: "function/error", message: messages.functionThrew } });
      expect(res.status).toBe(500);
      await benignStillAnswers();
      expect((await hostile("/ok")).json).toEqual({ ok: true });
    },
    SLOW,
  );

  it(
    "answering 1 GB is cut at the response cap",
    async () => {
      const res = await hostile("/flood");
      expect(res.status).toBe(502);
      expect(res.json).toEqual({
        error: {
          code: "function/response-too-large",
          message: fillTemplate(messages.functionResponseTooLarge, { max: "6 MB" }),
        },
      });
      expect(res.text.length).toBeLessThan(1000);
      await benignStillAnswers();
    },
    SLOW,
  );

  it("the canary secret shows in no answer or log of the other app, nor in ours", async () => {
    expect(seen.length).toBeGreaterThan(20);
    for (const text of [...seen, ...runtime.logs(APP_B, "hostile.ts"), ...ourOutput]) {
      expect(text).not.toContain(CANARY);
    }
  });
});

describe("the function runtime's processes", () => {
  let runtime: FunctionRuntime;
  const COUNTER = `
let calls = 0;
const started = Math.random();
export default { fetch: () => Response.json({ calls: ++calls, started, env: Deno.env.get("KEY") ?? null }) };
`;
  const call = async (code: string, secrets: Record<string, string> = {}, appId = APP_A, name = "f.ts") => {
    const res = await runtime.call({ appId, name, code, secrets, request: { method: "GET", url: "/" } });
    const text = new TextDecoder().decode(res.body);
    return { status: res.status, json: JSON.parse(text) as Json };
  };

  beforeAll(() => {
    runtime = createFunctionRuntime({ limits: { idleMs: 1_000 } });
  });
  afterAll(() => runtime?.close());

  it(
    "keeps a process warm between calls, and starts another for new code or new secrets",
    async () => {
      const first = await call(COUNTER, { KEY: "one" });
      const second = await call(COUNTER, { KEY: "one" });
      expect(second.json).toEqual({ calls: 2, started: first.json.started, env: "one" });
      const newSecrets = await call(COUNTER, { KEY: "two" });
      expect(newSecrets.json).toMatchObject({ calls: 1, env: "two" });
      const newCode = await call(`${COUNTER}\n// v2`, { KEY: "two" });
      expect(newCode.json).toMatchObject({ calls: 1, env: "two" });
      // Concurrent calls share the one process.
      const many = await Promise.all(
        Array.from({ length: 10 }, () => call(`${COUNTER}\n// v2`, { KEY: "two" })),
      );
      expect(new Set(many.map((m) => m.json.started))).toEqual(new Set([newCode.json.started]));
    },
    SLOW,
  );

  it(
    "calls a warm process over one kept-open connection, of which the function sees nothing",
    async () => {
      const PEER = `export default (req: Request, info: Deno.ServeHandlerInfo) =>
  Response.json({ port: (info.remoteAddr as Deno.NetAddr).port, connection: req.headers.get("connection") });`;
      const first = await call(PEER);
      const second = await call(PEER);
      expect(first.json.connection).toBeNull();
      // The same port of ours: the second call came over the first one's connection.
      expect(second.json.port).toBe(first.json.port);
    },
    SLOW,
  );

  it(
    "starts many cold functions at once, a few at a time, all answering",
    async () => {
      const many = await Promise.all(
        Array.from({ length: 6 }, (_, i) => call(COUNTER, { KEY: `k${i}` }, APP_B, `cold-${i}.ts`)),
      );
      expect(many.map((m) => m.json.env)).toEqual(["k0", "k1", "k2", "k3", "k4", "k5"]);
    },
    SLOW,
  );

  it(
    "stops a process left idle; the next call starts another",
    async () => {
      const first = await call(COUNTER, { KEY: "k" }, APP_B, "idle.ts");
      await vi.waitFor(
        async () => {
          const later = await call(COUNTER, { KEY: "k" }, APP_B, "idle.ts");
          expect(later.json.started).not.toBe(first.json.started);
        },
        { timeout: 30_000, interval: 2_500 },
      );
    },
    SLOW,
  );

  it("refuses a secret whose key is not a variable name (it would widen --allow-env)", async () => {
    await expect(call(COUNTER, { "KEY,DATABASE_URL": "x" })).rejects.toThrow("not a variable name");
  });

  it(
    "answers with a message when the function fails",
    async () => {
      expect(await call("Deno.serve(() => { throw new Error('boom'); });")).toEqual({
        status: 500,
        json: { error: { code: "function/error", message: messages.functionThrew } },
      });
      expect(await call("Deno.serve(() => 'not a response');")).toEqual({
        status: 500,
        json: { error: { code: "function/no-response", message: messages.functionNoResponse } },
      });
      expect(await call("export const x = 1;")).toEqual({
        status: 500,
        json: { error: { code: "function/start-failed", message: messages.functionNoHandler } },
      });
      expect(await call("throw new Error('at start');")).toEqual({
        status: 500,
        json: { error: { code: "function/start-failed", message: messages.functionStartFailed } },
      });
      expect(runtime.logs(APP_A, "f.ts").join("\n")).toContain("at start");
      await expect(call("Deno.serve((req) => new Response(")).rejects.toMatchObject({
        status: 400,
        message: expect.stringContaining("The function could not be built: 1:"),
      });
    },
    SLOW,
  );

  it(
    "gives a process none of our environment and its secrets not through its environment",
    async () => {
      const canary = `canary-${Math.random().toString(36).slice(2)}`;
      expect((await call(COUNTER, { KEY: canary }, APP_B, "env.ts")).json.env).toBe(canary);
      const ours = readdirSync("/proc")
        .filter((d) => /^\d+$/.test(d))
        .filter((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(runtime.root);
          } catch {
            return false;
          }
        });
      expect(ours.length).toBeGreaterThan(0);
      for (const pid of ours) {
        const environ = readFileSync(`/proc/${pid}/environ`, "utf8");
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
        expect(environ).not.toContain("DATABASE_URL");
        expect(environ).not.toContain("AUTH_SECRET");
        expect(environ).not.toContain(canary);
        expect(cmdline).not.toContain(canary);
      }
    },
    SLOW,
  );
});

describe("the function runtime's process limits", () => {
  it(
    "ends a process at its CPU time, long before its wall time",
    async () => {
      const runtime = createFunctionRuntime({ limits: { processCpuSeconds: 2, wallMs: 90_000 } });
      try {
        const res = await runtime.call({
          appId: APP_A,
          name: "spin.ts",
          code: "Deno.serve(() => { for (;;) {} });",
          secrets: {},
          request: { method: "GET", url: "/" },
        });
        // Killed by the CPU limit (SIGXCPU), long before the wall time.
        expect(res.status).toBe(502);
      } finally {
        await runtime.close();
      }
    },
    SLOW,
  );

  it(
    "a server that dies leaves no function process behind",
    async () => {
      const child = spawnSync(
        process.execPath,
        ["--conditions=react-server", "--import", "tsx", "tests/support/function-runtime-child.ts"],
        { encoding: "utf8", timeout: 90_000 },
      );
      const { root, status } = JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "{}");
      expect(status).toBe(200);
      await vi.waitFor(
        () => {
          const left = readdirSync("/proc").filter((pid) => {
            try {
              return /^\d+$/.test(pid) && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(root);
            } catch {
              return false;
            }
          });
          expect(left).toEqual([]);
        },
        { timeout: 20_000, interval: 250 },
      );
      rmSync(root, { recursive: true, force: true });
    },
    SLOW,
  );
});
