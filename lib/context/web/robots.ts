import "server-only";
import robotsParser from "robots-parser";
import { WebFetchError } from "./fetch-error";
import { type GuardedFetchOptions, guardedFetch, ROBOTS_USER_AGENT } from "./guarded-fetch";

type Rules = ReturnType<typeof robotsParser> | "allow-all";

/** RFC 9309 asks crawlers to read at least 500 KiB of a robots.txt; the rest is ignored. */
const ROBOTS_MAX_BYTES = 500 * 1024;

/**
 * The robots.txt rules of the sites one crawl visits, fetched once per origin through the same
 * guarded fetch as the pages. As RFC 9309 says: a robots.txt that is not there (4xx, or more
 * redirects than allowed) allows everything; one the server fails to give (5xx, no answer)
 * forbids the site for now, so the error is thrown for the page that needed it.
 */
export class RobotsRules {
  private readonly byOrigin = new Map<string, Promise<Rules>>();

  constructor(private readonly fetchOptions: GuardedFetchOptions) {}

  async allows(url: URL): Promise<boolean> {
    let rules = this.byOrigin.get(url.origin);
    if (!rules) {
      rules = this.load(url.origin);
      this.byOrigin.set(url.origin, rules);
    }
    const loaded = await rules;
    return loaded === "allow-all" || loaded.isAllowed(url.href, ROBOTS_USER_AGENT) !== false;
  }

  private async load(origin: string): Promise<Rules> {
    const robotsUrl = `${origin}/robots.txt`;
    try {
      const file = await guardedFetch(robotsUrl, {
        ...this.fetchOptions,
        anyContentType: true,
        truncate: true,
        maxBytes: ROBOTS_MAX_BYTES,
      });
      // The rules apply to the origin asked about, even when robots.txt was redirected elsewhere.
      return robotsParser(robotsUrl, file.text);
    } catch (err) {
      if (!(err instanceof WebFetchError)) throw err;
      if (err.code === "too_many_redirects") return "allow-all";
      if (err.code === "http_status" && (err.status ?? 0) >= 400 && (err.status ?? 0) < 500)
        return "allow-all";
      if (err.code === "http_status") {
        throw new WebFetchError("unreachable", `${robotsUrl} answered ${err.status}`, { cause: err });
      }
      throw err;
    }
  }
}
