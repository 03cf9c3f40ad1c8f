import "server-only";
import type { ContextItem } from "@/db/schema";
import { UnreadableFileError } from "@/lib/context/extract-file";
import { logInfo } from "@/lib/log";
import type { MessageKey } from "@/lib/messages";
import { WebFetchError, type WebFetchErrorCode } from "./fetch-error";
import { type FetchedPage, type GuardedFetchOptions, guardedFetch } from "./guarded-fetch";
import { type PageContent, readPage } from "./page-text";
import { pageKey, resolveLink, sameSite } from "./page-url";
import { RobotsRules } from "./robots";
import { scraperNetworkFromEnv } from "./scraper-config";

/** The app owner's plan limits (lib/plans/capabilities.ts webScraperMaxDepth / MaxPages). */
export type WebScraperLimits = { maxDepth: number; maxPages: number };

export type CrawlOptions = GuardedFetchOptions & {
  /** Time for the whole crawl; past it no new page is started and what was read is kept. */
  budgetMs?: number;
};

export type CrawlResult = { text: string; pages: number };

/**
 * Below the ingest job's 15-minute expiry (db/job-queues.ts), so a long crawl ends with what it
 * has instead of being taken for a dead worker's job and run again.
 */
export const CRAWL_BUDGET_MS = 10 * 60_000;

/**
 * Reads a site from `item.externalFileUrl`: breadth first, same site only (the start page's host
 * after its redirects, http or https), each page once, pages robots.txt allows, through the
 * SSRF-guarded fetch. Depth counts levels of pages: the start page is depth 1, the pages it links
 * to depth 2, and so on up to `limits.maxDepth` (so 2 = the start page and the pages it links to).
 * At most `limits.maxPages` pages are read. Each page's text comes after its title and URL.
 *
 * A start page that cannot be read fails the source: UnreadableFileError with the reason the
 * builder sees. A page failing later is skipped.
 */
export async function crawlWebSource(
  item: Pick<ContextItem, "externalFileUrl">,
  limits: WebScraperLimits,
  options: CrawlOptions = {},
): Promise<CrawlResult> {
  const { budgetMs = CRAWL_BUDGET_MS, ...fetchOptions } = options;
  const start = item.externalFileUrl ? resolveLink(item.externalFileUrl) : undefined;
  if (!start) throw new UnreadableFileError("contextWebInvalidUrl");
  // Read once for the whole crawl.
  const fetchOpts: GuardedFetchOptions = {
    ...fetchOptions,
    network: fetchOptions.network ?? scraperNetworkFromEnv(),
  };
  const robots = new RobotsRules(fetchOpts);
  const deadline = Date.now() + budgetMs;
  // Links waiting are bounded too: a page of 50,000 links must not fill the memory.
  const maxKnown = limits.maxPages * 20;
  const known = new Set([pageKey(start)]);
  const queue: { url: URL; depth: number }[] = [{ url: start, depth: 1 }];
  const texts: string[] = [];
  let site: URL | undefined;
  let read = 0;

  // The start page is read whatever the budget; the budget bounds the rest.
  while (queue.length > 0 && read < limits.maxPages && (!site || Date.now() < deadline)) {
    const { url, depth } = queue.shift()!;
    let page: FetchedPage;
    try {
      page = await fetchAllowed(url, robots, fetchOpts);
    } catch (err) {
      if (!site) throw startPageError(err);
      logInfo("web scraper skipped a page", {
        url: url.href,
        reason: err instanceof Error ? err.message : err,
      });
      continue;
    }
    const final = new URL(page.url);
    if (!site) {
      // A start page redirected to www. (or to https) makes that host the site.
      site = final;
      known.add(pageKey(final));
    } else {
      if (!sameSite(final, site)) continue;
      const key = pageKey(final);
      if (key !== pageKey(url)) {
        if (known.has(key)) continue; // redirected to a page already read
        known.add(key);
      }
    }
    read++;
    let content: PageContent;
    try {
      content = await readPage(page.text, page.mediaType, page.url);
    } catch (err) {
      // The start page's failure is the source's; a later page's is skipped like a failed fetch.
      if (read === 1) throw err;
      logInfo("web scraper skipped a page", {
        url: page.url,
        reason: err instanceof Error ? err.message : err,
      });
      continue;
    }
    if (content.text) texts.push(`${content.title || final.href}\n${final.href}\n\n${content.text}`);
    if (depth >= limits.maxDepth) continue;
    for (const href of content.links) {
      if (known.size >= maxKnown) break;
      const link = resolveLink(href, content.base ?? page.url);
      if (!link || !sameSite(link, site)) continue;
      const key = pageKey(link);
      if (known.has(key)) continue;
      known.add(key);
      queue.push({ url: link, depth: depth + 1 });
    }
  }
  return { text: texts.join("\n\n"), pages: texts.length };
}

/** The page, if robots.txt allows it, and allows where its redirects ended too. */
async function fetchAllowed(
  url: URL,
  robots: RobotsRules,
  options: GuardedFetchOptions,
): Promise<FetchedPage> {
  const refused = (u: URL) =>
    new WebFetchError("robots_disallowed", `robots.txt disallows ${u.href}`, { url: u.href });
  if (!(await robots.allows(url))) throw refused(url);
  const page = await guardedFetch(url.href, options);
  const final = new URL(page.url);
  if (final.href !== url.href && !(await robots.allows(final))) throw refused(final);
  return page;
}

const START_PAGE_MESSAGES: Record<WebFetchErrorCode, MessageKey> = {
  invalid_url: "contextWebInvalidUrl",
  forbidden_address: "contextWebPrivateAddress",
  robots_disallowed: "contextWebRobots",
  too_large: "contextWebTooLarge",
  unsupported_type: "contextWebNotPage",
  dns_failed: "contextWebUnreachable",
  unreachable: "contextWebUnreachable",
  timeout: "contextWebUnreachable",
  http_status: "contextWebUnreachable",
  too_many_redirects: "contextWebUnreachable",
};

/**
 * The start page's failure as the reason the builder reads. Anything else (a bug, a bad
 * SCRAPER_* variable) is thrown as it is, for the job to retry and log.
 */
function startPageError(err: unknown): unknown {
  if (!(err instanceof WebFetchError)) return err;
  return new UnreadableFileError(START_PAGE_MESSAGES[err.code], { cause: err });
}
