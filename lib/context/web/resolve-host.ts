import "server-only";
import { lookup, Resolver } from "node:dns/promises";
import { isIP } from "node:net";
import { WebFetchError } from "./fetch-error";

export type ResolvedAddress = { address: string; family: 4 | 6 };

/**
 * Every address `hostName` resolves to, resolved by us (not by the HTTP client at connect time),
 * so that each can be checked and the connection made to a checked one. With `servers`, those
 * DNS servers answer (A and AAAA); without, the system's resolver (hosts file included).
 */
export async function resolveHost(
  hostName: string,
  opts: { servers?: string[]; signal?: AbortSignal },
): Promise<ResolvedAddress[]> {
  const bare = hostName.startsWith("[") ? hostName.slice(1, -1) : hostName;
  const literal = isIP(bare);
  if (literal) return [{ address: bare, family: literal as 4 | 6 }];
  const found = await abortable(
    opts.signal,
    opts.servers ? queryServers(bare, opts.servers, opts.signal) : system(bare),
  );
  if (found.length === 0) throw new WebFetchError("dns_failed", `${bare} does not resolve`);
  return found;
}

async function system(hostName: string): Promise<ResolvedAddress[]> {
  try {
    const all = await lookup(hostName, { all: true, verbatim: true });
    return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  } catch (err) {
    throw new WebFetchError("dns_failed", `${hostName} does not resolve`, { cause: err });
  }
}

async function queryServers(
  hostName: string,
  servers: string[],
  signal?: AbortSignal,
): Promise<ResolvedAddress[]> {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  resolver.setServers(servers);
  const cancel = () => resolver.cancel();
  signal?.addEventListener("abort", cancel, { once: true });
  try {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostName), resolver.resolve6(hostName)]);
    const found: ResolvedAddress[] = [
      ...(v4.status === "fulfilled" ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
      ...(v6.status === "fulfilled" ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
    ];
    if (found.length === 0) {
      const cause = v4.status === "rejected" ? v4.reason : undefined;
      throw new WebFetchError("dns_failed", `${hostName} does not resolve`, { cause });
    }
    return found;
  } finally {
    signal?.removeEventListener("abort", cancel);
  }
}

/** The system resolver cannot be cancelled: the caller stops waiting for it instead. */
function abortable<T>(signal: AbortSignal | undefined, work: Promise<T>): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
