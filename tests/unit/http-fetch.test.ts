import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpFetch } from "@/lib/ai/http-fetch";

// The model calls' fetch over node:http (lib/ai/http-fetch.ts) against a local server: what the
// AI SDK relies on of fetch - the body and headers sent, a streamed answer, compressed answers
// inflated, a refused connection as TypeError('fetch failed'), aborts - and the kept-alive socket.

type Seen = { method?: string; headers: http.IncomingHttpHeaders; body: string; port?: number };
const seen: Seen[] = [];
let base = "";
const server = http.createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on("data", (c: Buffer) => parts.push(c));
  req.on("end", () => {
    seen.push({
      method: req.method,
      headers: req.headers,
      body: Buffer.concat(parts).toString(),
      port: req.socket.remotePort,
    });
    if (req.url === "/gzip") {
      res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" });
      return res.end(zlib.gzipSync("inflated words"));
    }
    if (req.url === "/slow") {
      // The first word, then nothing: the client must stop it.
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: first\n\n");
      return;
    }
    if (req.url === "/late") return; // never answers
    res.writeHead(201, { "content-type": "application/json", "x-extra": "yes" });
    res.write('{"echo":');
    res.end(`${JSON.stringify(Buffer.concat(parts).toString())}}`);
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("httpFetch", () => {
  it("sends the method, headers and body; answers status, headers and the whole body; keeps the socket", async () => {
    const body = JSON.stringify({ model: "m", messages: [{ role: "user", content: "héllo" }] });
    const res = await httpFetch(`${base}/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer k" },
      body,
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-extra")).toBe("yes");
    expect(await res.json()).toEqual({ echo: body });
    const first = seen.at(-1)!;
    expect(first).toMatchObject({ method: "POST", body });
    expect(first.headers.authorization).toBe("Bearer k");
    expect(first.headers["content-length"]).toBe(String(Buffer.byteLength(body)));

    await (await httpFetch(`${base}/again`, { method: "POST", body: "{}" })).text();
    // The same kept-alive connection.
    expect(seen.at(-1)!.port).toBe(first.port);
  });

  it("inflates a gzip answer, as fetch does", async () => {
    const res = await httpFetch(`${base}/gzip`);
    expect(await res.text()).toBe("inflated words");
  });

  it("a refused connection is a TypeError('fetch failed') with the cause, as the AI SDK expects of fetch", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const err = await httpFetch(`http://127.0.0.1:${port}/x`, { method: "POST", body: "{}" }).catch((e) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect(err.message).toBe("fetch failed");
    expect(err.cause.code).toBe("ECONNREFUSED");
  });

  it("an abort before the answer rejects with its reason; after the first bytes it ends the body", async () => {
    const early = new AbortController();
    const pending = httpFetch(`${base}/late`, { method: "POST", body: "{}", signal: early.signal });
    const reason = new Error("the client went away");
    setTimeout(() => early.abort(reason), 50);
    await expect(pending).rejects.toBe(reason);

    const late = new AbortController();
    const res = await httpFetch(`${base}/slow`, { signal: late.signal });
    const reader = res.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toBe("data: first\n\n");
    late.abort(new Error("stop"));
    await expect(reader.read()).rejects.toBeDefined();
  });
});
