import http from "node:http";
import type { AddressInfo } from "node:net";

// A small static website on 127.0.0.1 for the web scraper to read end to end (scripts/e2e.ts
// starts it; the app reaches it because SCRAPER_ALLOW_PRIVATE_HOSTS lists its host:port). A
// bakery's site of linked pages with real paragraphs, a robots.txt that keeps crawlers out of
// /staff/, and a link off-site. Each page's own sentence is exported, so a test can tell which
// pages the crawl read from the chunks stored.
//
// The off-site page is served too, under another host name (localhost instead of 127.0.0.1, on
// the same port): the address guard would let it through, so only the crawl's "same site only"
// rule keeps its text out.

/** One sentence only each page says. */
export const DEMO_SITE_TEXT = {
  home: "Harbor Bakery has baked sourdough by the old fish market since 1987.",
  menu: "Our rye loaf is fermented for thirty hours and baked in a stone oven.",
  visit: "The shop opens at seven in the morning, Tuesday to Sunday, and closes on Mondays.",
  /** Two links from the start page (depth 3): read on plans that crawl that deep. */
  story: "Grandmother Ilse brought the first starter culture from Hamburg in a glass jar.",
  /** robots.txt disallows /staff/: never read. */
  staff: "The alarm code of the back door is kept in the staff notes.",
  /** Linked from the start page on another host (localhost): never read. */
  offsite: "The partner farms grow an old variety of winter wheat on the island.",
} as const;

const page = (title: string, paragraphs: string[], links: { href: string; label: string }[]) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>` +
  `<header><nav>${links.map((l) => `<a href="${l.href}">${l.label}</a>`).join(" ")}</nav></header>` +
  `<main><article><h1>${title}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join("")}</article></main>` +
  `<footer><p>Harbor Bakery, 4 Quay Street</p></footer></body></html>`;

// Readability looks for an article of a few sentences; these pages read like a real site's.
const pages = (port: number): Record<string, string> => ({
  "/": page(
    "Harbor Bakery",
    [
      DEMO_SITE_TEXT.home,
      "Every loaf is shaped by hand before sunrise, and what is left at closing time goes to the night shelter on Dock Road.",
      `We buy our flour from mills we have visited, and our friends at <a href="http://localhost:${port}/partners">the partner farms</a> grow the grain.`,
    ],
    [
      { href: "/menu", label: "Menu" },
      { href: "/visit", label: "Visit us" },
      { href: "/staff/notes", label: "Staff" },
    ],
  ),
  "/menu": page(
    "Menu",
    [
      DEMO_SITE_TEXT.menu,
      "The seeded spelt loaf, the butter croissants and the cardamom buns are baked every day; the fruit tarts change with the season.",
    ],
    [
      { href: "/", label: "Home" },
      { href: "/visit", label: "Visit us" },
    ],
  ),
  "/visit": page(
    "Visit us",
    [
      DEMO_SITE_TEXT.visit,
      "You will find us at 4 Quay Street, across from the ferry landing; bicycles may be left in the courtyard.",
      'Curious how it all began? Read <a href="/visit/our-story">our story</a>.',
    ],
    [{ href: "/", label: "Home" }],
  ),
  "/visit/our-story": page(
    "Our story",
    [
      DEMO_SITE_TEXT.story,
      "The same culture still raises every sourdough loaf we sell, fed twice a day with rye flour and well water.",
    ],
    [{ href: "/", label: "Home" }],
  ),
  "/staff/notes": page(
    "Staff notes",
    [DEMO_SITE_TEXT.staff, "Shift plans are pinned by the flour store."],
    [{ href: "/", label: "Home" }],
  ),
  "/partners": page(
    "Partner farms",
    [DEMO_SITE_TEXT.offsite, "Their grain is milled slowly between stones a few miles inland."],
    [],
  ),
});

const ROBOTS = "User-agent: *\nDisallow: /staff/\n";

export type DemoSite = {
  /** The start page, http://127.0.0.1:{port}/ */
  url: string;
  port: number;
  /** For SCRAPER_ALLOW_PRIVATE_HOSTS. */
  hostPort: string;
  close(): Promise<void>;
};

/**
 * Serves the site on 127.0.0.1 on a free port. `latencyMs` holds each answer back a little, as
 * a real site over the network would, so a crawl lasts long enough for its Syncing... to be seen.
 */
export async function startDemoSite(opts: { latencyMs?: number } = {}): Promise<DemoSite> {
  const latencyMs = opts.latencyMs ?? 0;
  let site: Record<string, string> = {};
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://site").pathname;
    const answer = () => {
      if (path === "/robots.txt") {
        res.writeHead(200, { "Content-Type": "text/plain; charset=utf-8" });
        res.end(ROBOTS);
        return;
      }
      const html = site[path];
      res.writeHead(html ? 200 : 404, { "Content-Type": "text/html; charset=utf-8" });
      res.end(html ?? page("Not found", ["There is no such page."], [{ href: "/", label: "Home" }]));
    };
    if (latencyMs > 0) setTimeout(answer, latencyMs);
    else answer();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  site = pages(port);
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    hostPort: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
