import "server-only";
import { isIP } from "node:net";
import { env } from "@/lib/env";
import { parseAllowedPrivateHosts } from "./address-policy";

/** How the scraper reaches the network: who resolves names, which private hosts it may read. */
export type ScraperNetwork = {
  /** DNS servers ("ip" or "ip:port", "[ipv6]:port"); undefined: the system's resolver. */
  dnsServers?: string[];
  /** Canonical host:port keys (address-policy.ts hostPortKey) allowed although private. */
  allowedPrivate: ReadonlySet<string>;
};

/** SCRAPER_DNS_SERVERS and SCRAPER_ALLOW_PRIVATE_HOSTS, checked; a bad entry throws with its name. */
export function scraperNetworkFromEnv(): ScraperNetwork {
  const e = env();
  return {
    dnsServers: parseDnsServers(e.SCRAPER_DNS_SERVERS),
    allowedPrivate: parseAllowedPrivateHosts(e.SCRAPER_ALLOW_PRIVATE_HOSTS),
  };
}

export function parseDnsServers(raw: string | undefined): string[] | undefined {
  const entries = (raw ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (entries.length === 0) return undefined;
  for (const entry of entries) {
    // The forms dns.Resolver#setServers takes: 1.2.3.4, 1.2.3.4:53, ::1, [::1]:53.
    const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(entry);
    const host = match ? (match[1] ?? match[2]) : entry;
    const port = match ? Number(match[3]) : 53;
    if (!isIP(host) || port < 1 || port > 65535) {
      throw new Error(`SCRAPER_DNS_SERVERS: "${entry}" is not an ip or ip:port`);
    }
  }
  return entries;
}
