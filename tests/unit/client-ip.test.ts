import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { clientAddress, PEER_HEADER, tagPeer, UNKNOWN_CLIENT } from "@/lib/security/client-ip";

const h = (peer: string | null, xff?: string) => {
  const headers = new Headers();
  if (peer !== null) headers.set(PEER_HEADER, peer);
  if (xff !== undefined) headers.set("x-forwarded-for", xff);
  return headers;
};

describe("clientAddress", () => {
  it("is the socket's address by default, whatever X-Forwarded-For says", () => {
    expect(clientAddress(h("203.0.113.7", "198.51.100.1"), 0)).toBe("203.0.113.7");
  });

  it("without our server's peer header (an in-process call) is unknown, never a header's value", () => {
    expect(clientAddress(h(null, "198.51.100.1"), 0)).toBe(UNKNOWN_CLIENT);
    expect(clientAddress(h(null, "198.51.100.1"), 1)).toBe(UNKNOWN_CLIENT);
  });

  it("behind N trusted proxies, takes the address N hops from the right", () => {
    // client 198.51.100.1 -> proxy A (10.0.0.1) -> proxy B (10.0.0.2) -> us
    expect(clientAddress(h("10.0.0.2", "198.51.100.1, 10.0.0.1"), 2)).toBe("198.51.100.1");
    expect(clientAddress(h("10.0.0.2", "198.51.100.1, 10.0.0.1"), 1)).toBe("10.0.0.1");
    // What the client wrote itself sits further left and is never taken.
    expect(clientAddress(h("10.0.0.1", "6.6.6.6, 198.51.100.1"), 1)).toBe("198.51.100.1");
  });

  it.each([
    ["garbage", "not-an-ip"],
    ["a mix", "198.51.100.1, <script>"],
    ["too long", Array.from({ length: 200 }, (_, i) => `10.0.${i % 250}.1`).join(", ")],
    ["empty", ""],
  ])("ignores a forwarded header that is %s, using the socket's address", (_name, xff) => {
    expect(clientAddress(h("10.0.0.1", xff), 1)).toBe("10.0.0.1");
  });

  it("a chain shorter than the proxies said falls back to the socket's address", () => {
    expect(clientAddress(h("10.0.0.1", "198.51.100.1"), 3)).toBe("10.0.0.1");
  });

  it("reads IPv4 clients of a dual-stack socket as IPv4", () => {
    expect(clientAddress(h("::ffff:203.0.113.7"), 0)).toBe("203.0.113.7");
    expect(clientAddress(h("2001:db8::1"), 0)).toBe("2001:db8::1");
  });

  it("a peer header that is not an address counts as unknown", () => {
    expect(clientAddress(h("evil"), 0)).toBe(UNKNOWN_CLIENT);
  });
});

describe("tagPeer (our server's first act on every request)", () => {
  it("overwrites a peer header sent by the client with the socket's address", async () => {
    const server = http.createServer((req, res) => {
      tagPeer(req);
      res.end(String(req.headers[PEER_HEADER]));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/`, {
        headers: { [PEER_HEADER]: "198.51.100.66", "x-forwarded-for": "198.51.100.66" },
      });
      expect(await res.text()).toBe("127.0.0.1");
    } finally {
      server.close();
    }
  });
});
