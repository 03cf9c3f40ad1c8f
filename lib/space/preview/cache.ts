import "server-only";
import crypto from "node:crypto";
import { PREVIEW_CACHE_MAX_BYTES, PREVIEW_CACHE_MAX_ENTRIES } from "@/lib/constants";
import { BUILD_LOGIC_HASH, type PreviewBuild } from "./build";

// Built previews, kept in memory per server process (least recently used first out), keyed by
// what decides the bundle: the build's own logic and the version's files (path and content hash),
// so two versions with the same files (a restore, its undo) share one build. A build in progress
// is shared by everyone who asks for it meanwhile. A build that timed out is not kept: on a
// quieter server it may succeed.

/** The cache key of a tree of files: path -> sha256 of the content. */
export function previewKey(tree: ReadonlyMap<string, string>): string {
  const hash = crypto.createHash("sha256").update(BUILD_LOGIC_HASH);
  for (const p of [...tree.keys()].sort()) hash.update(`\n${p}\0${tree.get(p)}`);
  return hash.digest("hex");
}

const sizeOf = (b: PreviewBuild) =>
  b.ok ? b.js.length + b.css.length : b.issues.reduce((n, i) => n + i.title.length + i.details.length, 0);

const entries = new Map<string, PreviewBuild>();
const inFlight = new Map<string, Promise<PreviewBuild>>();
let bytes = 0;

export function cachedPreview(key: string): PreviewBuild | undefined {
  const found = entries.get(key);
  if (found) {
    entries.delete(key);
    entries.set(key, found); // most recently used last
  }
  return found;
}

function keep(key: string, build: PreviewBuild): void {
  if (!build.ok && build.timedOut) return;
  const size = sizeOf(build);
  if (size > PREVIEW_CACHE_MAX_BYTES) return;
  const old = entries.get(key);
  if (old) bytes -= sizeOf(old);
  entries.delete(key);
  entries.set(key, build);
  bytes += size;
  for (const [k, v] of entries) {
    if (bytes <= PREVIEW_CACHE_MAX_BYTES && entries.size <= PREVIEW_CACHE_MAX_ENTRIES) break;
    entries.delete(k);
    bytes -= sizeOf(v);
  }
}

/** The preview of `key`: from the cache, from a build in progress, or built now by `build`. */
export async function withPreviewCache(
  key: string,
  build: () => Promise<PreviewBuild>,
): Promise<{ build: PreviewBuild; cached: boolean }> {
  const found = cachedPreview(key);
  if (found) return { build: found, cached: true };
  let pending = inFlight.get(key);
  if (!pending) {
    pending = build()
      .then((b) => {
        keep(key, b);
        return b;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return { build: await pending, cached: false };
}

/** Empties the cache (the benchmark's cold runs). */
export function clearPreviewCache(): void {
  entries.clear();
  bytes = 0;
}
