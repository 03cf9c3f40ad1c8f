import http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { insertApp } from "@/db/queries/apps";
import { insertContextItem } from "@/db/queries/context";
import { UnreadableFileError } from "@/lib/context/extract-file";
import { crawlWebSource } from "@/lib/context/web/crawl";
import { WebFetchError } from "@/lib/context/web/fetch-error";
import { type GuardedFetchOptions, guardedFetch } from "@/lib/context/web/guarded-fetch";
import { readSource } from "@/lib/integrations/read-source";
import { findAppWithOwner } from "@/lib/plans/owner-plan";
import { type LocalDnsServer, startDnsServer } from "../support/dns-server";
import { createBuilder } from "../support/factories";

// The web scraper: a crawl of a small site on real local HTTP servers, and its SSRF
// defences. Every name is resolved by a local DNS server (SCRAPER_DNS_SERVERS), so a test can make
// a name resolve to a private address, or change its answer between two lookups (rebinding).
// 127.0.0.1 is private like any loopback address: only the ports listed in
// SCRAPER_ALLOW_PRIVATE_HOSTS (the site's, the rebinding test's) may be read.

type Served = { server: http.Server; port: number; hits: string[] };

async function serve(handler: http.RequestListener, host = "127.0.0.1", port = 0): Promise<Served> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    handler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return { server, port: (server.address() as AddressInfo).port, hits };
}

const page = (title: string, body: string, links: string[] = []) =>
  `<!doctype html><html><head><title>${title}</title></head><body><nav><a href="/">Menu</a></nav>` +
  `<main><h1>${title}</h1><p>${body}</p>${links.map((l) => `<p><a href="${l}">link</a></p>`).join("")}</main></body></html>`;

const html = (res: http.ServerResponse, body: string) => {
  res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
  res.end(body);
};

let dns: LocalDnsServer;
let site: Served; // allowed: its port is in SCRAPER_ALLOW_PRIVATE_HOSTS
let forbidden: Served; // 127.0.0.1 on a port that is not
let loopback6: Served; // [::1], not allowed
let rebindGood: Served; // 127.0.0.1:X, allowed
let rebindEvil: Served; // 127.0.0.2:X, the same port on another loopback address: not allowed
let robotsless: Served; // allowed; its robots.txt answers `robotsStatus`
let robotsStatus = 404;
const open: Served[] = [];

function sitePages(req: http.IncomingMessage, res: http.ServerResponse) {
  const S = site.port;
  const F = forbidden.port;
  const url = req.url ?? "/";
  switch (url) {
    case "/robots.txt":
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.end("User-agent: *\nDisallow: /nothing\n\nUser-agent: BuilderBot\nDisallow: /private\n");
      return;
    case "/":
      return html(
        res,
        page("Home", "Welcome to the home page", [
          "/a",
          "/b",
          "/a#top", // the same page as /a
          "/a/", // and again
          `http://127.0.0.1:${S}/b`, // absolute, still /b
          `http://localhost:${S}/elsewhere`, // another host name: not this site
          `http://127.0.0.1:${F}/`, // another port: not this site
          "mailto:someone@example.com",
          "javascript:void(0)",
          "/private/secret", // robots.txt disallows it
          "/image", // not a page: skipped
          "/big", // over the size cap: skipped
        ]),
      );
    case "/a":
      return html(res, page("Page A", "Alpha page text", ["/a1", "/"]));
    case "/b":
      return html(res, page("Page B", "Bravo page text", ["/b1"]));
    case "/a1":
      return html(res, page("Page A1", "Alpha one text", ["/a2"]));
    case "/b1":
      return html(res, page("Page B1", "Bravo one text"));
    case "/a2":
      return html(res, page("Page A2", "Alpha two text"));
    case "/private/secret":
    case "/private/start":
      return html(res, page("Secret", "SECRET text robots must keep out"));
    case "/elsewhere":
      return html(res, page("Elsewhere", "Another host's page"));
    case "/image":
      res.writeHead(200, { "Content-Type": "image/png" });
      res.end(Buffer.alloc(100));
      return;
    case "/big":
    case "/t/endless": {
      // Endless: only a reader that stops at its cap ever gets to the end of this.
      res.writeHead(200, { "Content-Type": "text/html" });
      const chunk = Buffer.alloc(16 * 1024, "a");
      const write = () => {
        let more = true;
        while (more && !res.destroyed) more = res.write(chunk);
        if (!res.destroyed) res.once("drain", write);
      };
      write();
      return;
    }
    case "/t/plain":
      res.writeHead(200, { "Content-Type": "text/plain; charset=utf-8" });
      res.end("Plain text page");
      return;
    case "/t/declared-large":
      res.writeHead(200, { "Content-Type": "text/html", "Content-Length": 200_000 });
      res.end(Buffer.alloc(200_000, "a"));
      return;
    case "/t/gzip":
      res.writeHead(200, { "Content-Type": "text/html", "Content-Encoding": "gzip" });
      res.end(gzipSync(page("Zipped", "Compressed page text")));
      return;
    case "/t/gzip-bomb":
      // 10 MB of zeros in about 10 KB: the cap must count what it unpacks to.
      res.writeHead(200, { "Content-Type": "text/html", "Content-Encoding": "gzip" });
      res.end(gzipSync(Buffer.alloc(10 * 1024 * 1024)));
      return;
    case "/t/latin1":
      res.writeHead(200, { "Content-Type": "text/html; charset=iso-8859-1" });
      res.end(Buffer.from(page("Caf\u00e9", "cr\u00e8me br\u00fbl\u00e9e"), "latin1"));
      return;
    case "/t/slow-headers":
      return; // never answers
    case "/t/slow-body":
      res.writeHead(200, { "Content-Type": "text/html" });
      res.write("<html><body>");
      return; // and nothing more
    case "/t/redirect-in":
      res.writeHead(302, { Location: "/t/plain" });
      res.end();
      return;
    case "/t/redirect-out":
      res.writeHead(302, { Location: `http://127.0.0.1:${F}/` });
      res.end();
      return;
    case "/t/redirect-file":
      res.writeHead(302, { Location: "file:///etc/passwd" });
      res.end();
      return;
    case "/t/redirect-private-name":
      res.writeHead(302, { Location: `http://private.test:${F}/` });
      res.end();
      return;
    case "/t/status-500":
      res.writeHead(500, { "Content-Type": "text/html" });
      res.end("oops");
      return;
    default: {
      const loop = /^\/t\/loop\/(\d+)$/.exec(url);
      if (loop) {
        res.writeHead(302, { Location: `/t/loop/${Number(loop[1]) + 1}` });
        res.end();
        return;
      }
      res.writeHead(404, { "Content-Type": "text/html" });
      res.end("not found");
    }
  }
}

/** Rebinding: an allowed address for the first lookup, a forbidden one for every later lookup. */
const rebinding = (previous: number) => (previous === 0 ? ["127.0.0.1"] : ["127.0.0.2"]);

beforeAll(async () => {
  dns = await startDnsServer();
  forbidden = await serve((_req, res) => html(res, page("Internal", "INTERNAL admin page")));
  site = await serve(sitePages);
  loopback6 = await serve((_req, res) => html(res, page("Internal", "INTERNAL v6 page")), "::1");
  rebindGood = await serve((req, res) => html(res, page("Good", `GOOD host=${req.headers.host}`)));
  rebindEvil = await serve((_req, res) => html(res, page("Evil", "EVIL page")), "127.0.0.2", rebindGood.port);
  robotsless = await serve((req, res) => {
    if (req.url !== "/robots.txt") return html(res, page("Robotless", "No robots here", ["/more"]));
    res.writeHead(robotsStatus, { "Content-Type": "text/html" });
    res.end("no robots.txt");
  });
  open.push(forbidden, site, loopback6, rebindGood, rebindEvil, robotsless);

  dns.records.set("localhost", { A: ["127.0.0.1"] });
  dns.records.set("private.test", { A: ["127.0.0.1"] });
  dns.records.set("ten.test", { A: ["10.1.2.3"] });
  dns.records.set("mixed.test", { A: ["93.184.215.14", "10.0.0.1"] });
  dns.records.set("v6only.test", { AAAA: ["::1"] });
  dns.records.set("mapped.test", { AAAA: ["::ffff:127.0.0.1"] });
  dns.records.set("metadata.google.internal", { A: ["169.254.169.254"] });
  dns.records.set("rebind.test", { A: rebinding });

  // Read by lib/env.ts on first use, which comes after this.
  process.env.SCRAPER_DNS_SERVERS = dns.address;
  process.env.SCRAPER_ALLOW_PRIVATE_HOSTS = `127.0.0.1:${site.port}, 127.0.0.1:${rebindGood.port},127.0.0.1:${robotsless.port}`;
});

afterAll(async () => {
  for (const s of open) s.server.closeAllConnections();
  await Promise.all(open.map((s) => new Promise((r) => s.server.close(r))));
  await dns.close();
});

beforeEach(() => {
  for (const s of open) s.hits.length = 0;
});
// Whatever a test did, nothing may have reached a server that is not allowed.
afterEach(() => {
  expect([...forbidden.hits, ...loopback6.hits, ...rebindEvil.hits]).toEqual([]);
});

const siteUrl = (path: string) => `http://127.0.0.1:${site.port}${path}`;

/** The code of the WebFetchError a fetch fails with. */
async function failure(url: string, options?: GuardedFetchOptions): Promise<string> {
  try {
    await guardedFetch(url, options);
  } catch (err) {
    if (err instanceof WebFetchError) return err.code;
    throw err;
  }
  throw new Error(`${url} was fetched`);
}

async function crawlFailure(url: string): Promise<string> {
  try {
    await crawlWebSource(
      { externalFileUrl: url },
      { maxDepth: 2, maxPages: 5 },
      { timeoutMs: 2000, maxBytes: 100_000 },
    );
  } catch (err) {
    if (err instanceof UnreadableFileError) return err.reason;
    throw err;
  }
  throw new Error(`${url} was crawled`);
}

describe("crawl", () => {
  it("reads the site breadth first to depth 2: the start page and the pages it links to, each once", async () => {
    const result = await crawlWebSource(
      { externalFileUrl: siteUrl("/") },
      { maxDepth: 2, maxPages: 20 },
      { maxBytes: 64 * 1024 },
    );
    expect(result.pages).toBe(3);
    expect(result.text).toContain("Welcome to the home page");
    expect(result.text).toContain("Alpha page text");
    expect(result.text).toContain("Bravo page text");
    // Each page's text follows its title and address.
    expect(result.text).toContain(`Page A\n${siteUrl("/a")}\n\n`);
    expect(result.text).not.toContain("Alpha one text"); // depth 3
    expect(result.text).not.toContain("SECRET");
    expect(result.text).not.toContain("Another host");
    // robots.txt once; every page once (not /a#top, /a/ or the absolute /b again, nor / from /a);
    // the disallowed page, the other host and the other port never.
    expect([...site.hits].sort()).toEqual(["/", "/a", "/b", "/big", "/image", "/robots.txt"]);
  });

  it("goes one level further at depth 3", async () => {
    const result = await crawlWebSource(
      { externalFileUrl: siteUrl("/") },
      { maxDepth: 3, maxPages: 20 },
      { maxBytes: 64 * 1024 },
    );
    expect(result.text).toContain("Alpha one text");
    expect(result.text).toContain("Bravo one text");
    expect(result.text).not.toContain("Alpha two text");
    expect(site.hits.filter((h) => h === "/a")).toHaveLength(1);
    expect(site.hits).not.toContain("/private/secret");
    expect(site.hits).not.toContain("/a2");
  });

  it("stops at the page limit", async () => {
    const result = await crawlWebSource({ externalFileUrl: siteUrl("/") }, { maxDepth: 3, maxPages: 2 });
    expect(result.pages).toBe(2);
    expect(site.hits).toEqual(["/robots.txt", "/", "/a"]);
  });

  it("reads a plain-text start page, and one reached by a redirect", async () => {
    const result = await crawlWebSource(
      { externalFileUrl: siteUrl("/t/redirect-in") },
      { maxDepth: 2, maxPages: 5 },
    );
    expect(result).toEqual({
      text: `${siteUrl("/t/plain")}\n${siteUrl("/t/plain")}\n\nPlain text page`,
      pages: 1,
    });
  });

  it("reads everything when robots.txt is missing, nothing while the server fails to give it", async () => {
    const start = `http://127.0.0.1:${robotsless.port}/`;
    robotsStatus = 404;
    expect((await crawlWebSource({ externalFileUrl: start }, { maxDepth: 2, maxPages: 5 })).pages).toBe(2);
    expect(robotsless.hits).toEqual(["/robots.txt", "/", "/more"]);
    robotsless.hits.length = 0;
    robotsStatus = 503;
    expect(await crawlFailure(start)).toBe("contextWebUnreachable");
    expect(robotsless.hits).toEqual(["/robots.txt"]);
  });

  it("reads the start page, then no more once its time is up", async () => {
    const result = await crawlWebSource(
      { externalFileUrl: siteUrl("/") },
      { maxDepth: 3, maxPages: 20 },
      { budgetMs: 1 },
    );
    expect(result.pages).toBe(1);
    expect(site.hits).toEqual(["/robots.txt", "/"]);
  });

  it("fails the source with a reason the builder can read when the start page is refused", async () => {
    expect(await crawlFailure(siteUrl("/private/start"))).toBe("contextWebRobots");
    expect(await crawlFailure(`http://127.0.0.1:${forbidden.port}/`)).toBe("contextWebPrivateAddress");
    expect(await crawlFailure(siteUrl("/t/redirect-out"))).toBe("contextWebPrivateAddress");
    expect(await crawlFailure(`http://private.test:${forbidden.port}/`)).toBe("contextWebPrivateAddress");
    expect(await crawlFailure("http://nowhere.test/")).toBe("contextWebUnreachable");
    expect(await crawlFailure(siteUrl("/t/status-500"))).toBe("contextWebUnreachable");
    expect(await crawlFailure(siteUrl("/image"))).toBe("contextWebNotPage");
    expect(await crawlFailure(siteUrl("/t/declared-large"))).toBe("contextWebTooLarge");
    expect(await crawlFailure("ftp://example.com/")).toBe("contextWebInvalidUrl");
    expect(await crawlFailure("not a url")).toBe("contextWebInvalidUrl");
    expect(site.hits).not.toContain("/private/start");
  });

  it("is what the ingest job reads for a web scraper item, within the app owner's plan limits", async () => {
    const crawlOf = async (plan: string) => {
      const owner = await createBuilder({ plan });
      const app = await insertApp({ ownerAccountId: owner.account.accountId, header: "Site app" });
      const item = await insertContextItem({
        appId: app.id,
        name: "site",
        type: "web page",
        source: "web scraper",
        status: "pending",
        size: 0,
        content: null,
        externalFileUrl: siteUrl("/a"),
      });
      return (await readSource(item, (await findAppWithOwner(app.id))!)).text;
    };
    // /a links to /a1 (depth 2), which links to /a2 (depth 3).
    const lite = await crawlOf("lite");
    expect(lite).toContain("Alpha one text");
    expect(lite).not.toContain("Alpha two text");
    expect(await crawlOf("moon")).toContain("Alpha two text");
  });
});

describe("SSRF defences", () => {
  it("reads an allowed page", async () => {
    const result = await guardedFetch(siteUrl("/t/plain"));
    expect(result).toMatchObject({
      url: siteUrl("/t/plain"),
      mediaType: "text/plain",
      text: "Plain text page",
    });
  });

  it("refuses loopback, private, link-local and metadata addresses, and IPv6 loopback", async () => {
    const quick = { timeoutMs: 1500 }; // without the check these would hang, not be refused
    expect(await failure(`http://127.0.0.1:${forbidden.port}/`)).toBe("forbidden_address");
    expect(await failure(`http://127.1:${forbidden.port}/`)).toBe("forbidden_address");
    expect(await failure(`http://2130706433:${forbidden.port}/`)).toBe("forbidden_address");
    expect(await failure("http://10.0.0.1/", quick)).toBe("forbidden_address");
    expect(await failure("http://192.168.1.1/", quick)).toBe("forbidden_address");
    expect(await failure("http://100.64.0.1/", quick)).toBe("forbidden_address");
    expect(await failure("http://169.254.169.254/latest/meta-data/", quick)).toBe("forbidden_address");
    expect(await failure("http://metadata.google.internal/computeMetadata/v1/", quick)).toBe(
      "forbidden_address",
    );
    expect(await failure("http://0.0.0.0/", quick)).toBe("forbidden_address");
    expect(await failure(`http://[::1]:${loopback6.port}/`)).toBe("forbidden_address");
    expect(await failure(`http://[::ffff:127.0.0.1]:${forbidden.port}/`)).toBe("forbidden_address");
    expect(await failure("http://[fd00:ec2::254]/", quick)).toBe("forbidden_address");
  });

  it("refuses other schemes", async () => {
    expect(await failure("file:///etc/passwd")).toBe("invalid_url");
    expect(await failure("ftp://example.com/")).toBe("invalid_url");
    expect(await failure(siteUrl("/t/redirect-file"))).toBe("invalid_url");
  });

  it("checks every redirect: one from an allowed server to 127.0.0.1 on another port is refused", async () => {
    expect(await failure(siteUrl("/t/redirect-out"))).toBe("forbidden_address");
    expect(await failure(siteUrl("/t/redirect-private-name"))).toBe("forbidden_address");
    expect(site.hits).toEqual(["/t/redirect-out", "/t/redirect-private-name"]);
    expect((await guardedFetch(siteUrl("/t/redirect-in"))).url).toBe(siteUrl("/t/plain"));
  });

  it("follows at most 5 redirects", async () => {
    expect(await failure(siteUrl("/t/loop/0"))).toBe("too_many_redirects");
    expect(site.hits).toEqual(["/t/loop/0", "/t/loop/1", "/t/loop/2", "/t/loop/3", "/t/loop/4", "/t/loop/5"]);
  });

  it("refuses a name that resolves to a private address, and one with any private address among its answers", async () => {
    expect(await failure(`http://private.test:${forbidden.port}/`)).toBe("forbidden_address");
    expect(await failure("http://ten.test/", { timeoutMs: 1500 })).toBe("forbidden_address");
    expect(await failure("http://mixed.test/", { timeoutMs: 1500 })).toBe("forbidden_address");
    expect(await failure(`http://v6only.test:${loopback6.port}/`)).toBe("forbidden_address");
    expect(await failure(`http://mapped.test:${forbidden.port}/`)).toBe("forbidden_address");
    expect(await failure("http://nowhere.test/")).toBe("dns_failed");
  });

  it("connects to the address it checked, whatever DNS answers next (rebinding)", async () => {
    const before = dns.queries.filter((q) => q.name === "rebind.test" && q.type === "A").length;
    expect(before).toBe(0);
    const first = await guardedFetch(`http://rebind.test:${rebindGood.port}/`);
    // The allowed server answered, under the site's name (Host kept), after a single lookup.
    expect(first.text).toContain(`GOOD host=rebind.test:${rebindGood.port}`);
    expect(dns.queries.filter((q) => q.name === "rebind.test" && q.type === "A")).toHaveLength(1);
    expect(rebindEvil.hits).toEqual([]);
    // The next lookup answers the forbidden address: refused, never connected to.
    expect(await failure(`http://rebind.test:${rebindGood.port}/`)).toBe("forbidden_address");
    expect(rebindEvil.hits).toEqual([]);
  });

  it("caps a page's size while streaming, counted after decompression", async () => {
    const capped = { maxBytes: 100_000, timeoutMs: 3000 };
    expect(await failure(siteUrl("/t/declared-large"), capped)).toBe("too_large");
    // Endless: without the cap this would run into the timeout instead.
    expect(await failure(siteUrl("/t/endless"), capped)).toBe("too_large");
    expect(await failure(siteUrl("/t/gzip-bomb"), { maxBytes: 1024 * 1024 })).toBe("too_large");
    expect((await guardedFetch(siteUrl("/t/gzip"))).text).toContain("Compressed page text");
  });

  it("accepts only HTML and text pages, decoded in their charset", async () => {
    expect(await failure(siteUrl("/image"))).toBe("unsupported_type");
    expect((await guardedFetch(siteUrl("/t/latin1"))).text).toContain("cr\u00e8me br\u00fbl\u00e9e");
  });

  it("gives up on a server that does not answer in time", async () => {
    const started = Date.now();
    expect(await failure(siteUrl("/t/slow-headers"), { timeoutMs: 300 })).toBe("timeout");
    expect(await failure(siteUrl("/t/slow-body"), { timeoutMs: 300 })).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("says which status a page answered", async () => {
    await expect(guardedFetch(siteUrl("/t/status-500"))).rejects.toMatchObject({
      code: "http_status",
      status: 500,
    });
  });
});
