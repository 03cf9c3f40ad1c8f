import { isIP } from "node:net";
import { env } from "@/lib/env";

/**
 * Set by our own server (scripts/server.ts) on every request to the address of the socket it
 * came from, after deleting any value the client sent: the one address a client cannot choose.
 */
export const PEER_HEADER = "x-builder-peer";

/** A request that did not come through our server (an in-process call) has no known address. */
export const UNKNOWN_CLIENT = "unknown";

// Longer forwarded chains than this are not a real proxy's doing.
const MAX_FORWARDED_LENGTH = 1024;

/** The socket address as our server recorded it. */
export function peerAddress(headers: Headers): string {
  const peer = stripV4Mapped(headers.get(PEER_HEADER)?.trim() ?? "");
  return isIP(peer) ? peer : UNKNOWN_CLIENT;
}

// Node reports IPv4 clients of a dual-stack socket as ::ffff:a.b.c.d.
const stripV4Mapped = (ip: string) =>
  ip.startsWith("::ffff:") && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;

/**
 * The client's address for per-address limits. By default the socket's: a header is anybody's
 * to write. With `trustedProxyHops` = N proxies in front (TRUSTED_PROXY_HOPS), each appending
 * the address it saw to X-Forwarded-For, the client is the entry N hops from the right of the
 * chain "forwarded entries, then the socket". A chain too long, too short or with anything but
 * IP addresses in it is ignored: the socket's address is used.
 */
export function clientAddress(headers: Headers, trustedProxyHops: number): string {
  const peer = peerAddress(headers);
  if (trustedProxyHops <= 0 || peer === UNKNOWN_CLIENT) return peer;
  const forwarded = headers.get("x-forwarded-for");
  if (!forwarded || forwarded.length > MAX_FORWARDED_LENGTH) return peer;
  const entries = forwarded.split(",").map((e) => stripV4Mapped(e.trim()));
  if (entries.some((e) => !isIP(e))) return peer;
  const chain = [...entries, peer];
  return chain[chain.length - 1 - trustedProxyHops] ?? peer;
}

/** Our server's first act on every request: the peer header says where the socket came from. */
export function tagPeer(req: {
  headers: Record<string, string | string[] | undefined>;
  socket: { remoteAddress?: string };
}) {
  delete req.headers[PEER_HEADER];
  req.headers[PEER_HEADER] = req.socket.remoteAddress ?? "";
}

/** The client address of a request to this deployment (TRUSTED_PROXY_HOPS applied). */
export function clientIp(headers: Headers): string {
  return clientAddress(headers, env().TRUSTED_PROXY_HOPS);
}
