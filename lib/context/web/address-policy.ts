import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

// Which network addresses the web scraper may connect to. The scraper fetches addresses a
// builder typed, from inside our network: without this policy a builder could make the server
// read its own admin ports, the database, other hosts of the private network or the cloud's
// metadata service (its credentials) and get the answer back as "context".

/**
 * Only globally routable unicast addresses are public. ipaddr.js names every special range
 * (private, loopback, link-local, unique-local, carrier-grade NAT, multicast, unspecified,
 * broadcast, reserved, documentation, 6to4, Teredo, NAT64, ...) and calls the rest "unicast":
 * deny by default, so a range we forgot to list is refused, not allowed.
 */
export function isPublicAddress(address: string): boolean {
  const parsed = parseAddress(address);
  if (!parsed) return false;
  return parsed.range() === "unicast";
}

/**
 * The cloud metadata services (AWS, GCP, Azure, Oracle, Alibaba, AWS over IPv6). They are in
 * private ranges already; they are named again because they stay refused even when an operator
 * allows private hosts: no intranet site lives there, and their answers are credentials.
 */
const METADATA_ADDRESSES = new Set([
  "169.254.169.254",
  "169.254.170.2",
  "192.0.0.192",
  "100.100.100.200",
  "fd00:ec2::254",
]);
const METADATA_HOST_NAMES = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "metadata.azure.internal",
  "instance-data",
  "instance-data.ec2.internal",
]);

export function isMetadataAddress(address: string): boolean {
  const parsed = parseAddress(address);
  return parsed ? METADATA_ADDRESSES.has(parsed.toString()) : false;
}

export function isMetadataHostName(hostName: string): boolean {
  return METADATA_HOST_NAMES.has(hostName.toLowerCase().replace(/\.$/, ""));
}

/**
 * An address in one canonical form (IPv6 compressed, lower case, no brackets; an IPv4-mapped
 * IPv6 address as its IPv4 address, since that is where a connection to it goes).
 */
export function canonicalAddress(address: string): string | undefined {
  return parseAddress(address)?.toString();
}

function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bare = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  // Only the canonical forms: ipaddr.js would also read "0x7f.1" or "2130706433", which the URL
  // parser has already turned into dotted quads and which a resolver never answers.
  if (!isIP(bare)) return undefined;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed;
}

/** "host:port" as the allow list keeps it: host in lower case, an address canonical. */
export function hostPortKey(host: string, port: number): string {
  const address = canonicalAddress(host);
  const name = address ?? host.toLowerCase().replace(/\.$/, "");
  return `${name.includes(":") ? `[${name}]` : name}:${port}`;
}

/**
 * SCRAPER_ALLOW_PRIVATE_HOSTS: a comma-separated list of host:port pairs (a name, an IPv4
 * address or a bracketed IPv6 address, and a port) the scraper may read although they are
 * private. Throws with the variable's name for an entry it cannot read.
 */
export function parseAllowedPrivateHosts(raw: string | undefined): Set<string> {
  const allowed = new Set<string>();
  for (const entry of (raw ?? "").split(",").map((s) => s.trim())) {
    if (!entry) continue;
    const match = /^(\[[^\]]+\]|[^:[\]\s]+):(\d{1,5})$/.exec(entry);
    const port = match ? Number(match[2]) : 0;
    if (!match || port < 1 || port > 65535) {
      throw new Error(`SCRAPER_ALLOW_PRIVATE_HOSTS: "${entry}" is not a host:port pair`);
    }
    const host = match[1].startsWith("[") ? match[1].slice(1, -1) : match[1];
    if (match[1].startsWith("[") && !canonicalAddress(host)) {
      throw new Error(`SCRAPER_ALLOW_PRIVATE_HOSTS: "${entry}" is not a host:port pair`);
    }
    allowed.add(hostPortKey(host, port));
  }
  return allowed;
}

export type AddressCheck = { allowed: true } | { allowed: false; reason: "metadata" | "private" };

/**
 * May the scraper connect to `address` (one that `hostName` resolved to) on `port`? Public
 * addresses: yes. Private ones: only when the operator allowed that host name or that address on
 * that port. Metadata services: never.
 */
export function checkAddress(
  hostName: string,
  address: string,
  port: number,
  allowedPrivate: ReadonlySet<string>,
): AddressCheck {
  if (isMetadataHostName(hostName) || isMetadataAddress(address))
    return { allowed: false, reason: "metadata" };
  if (isPublicAddress(address)) return { allowed: true };
  if (allowedPrivate.has(hostPortKey(hostName, port)) || allowedPrivate.has(hostPortKey(address, port))) {
    return { allowed: true };
  }
  return { allowed: false, reason: "private" };
}
