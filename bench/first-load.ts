import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

// First-load JS of pages, from the build. Next 16's `next build` no longer prints it; it writes
// .next/diagnostics/route-bundle-stats.json instead: one row per route, with the uncompressed
// bytes and the chunk files a first visit loads (the page's and its layouts' entry chunks plus
// the shared runtime). Browsers get them compressed, so each chunk is also gzipped here, as the
// server would send it (zlib's default level).

type BundleRow = { route: string; firstLoadUncompressedJsBytes: number; firstLoadChunkPaths: string[] };

export type FirstLoad = {
  route: string;
  /** project-relative chunk files, each with its gzipped size */
  chunks: { file: string; gzipBytes: number }[];
  rawBytes: number;
  gzipBytes: number;
};

/** The least a page of this app ships: root layout + runtime, one line of text (app/bench/minimal). */
export const MINIMAL_ROUTE = "/bench/minimal";

/** The pages the issue sets goals for, as multiples of the minimal page. */
export const FIRST_LOAD_GOALS = [
  { route: "/app/[appId]", label: "public app page", goal: 1.3 },
  { route: "/build/app/[appId]", label: "editor", goal: 2.5 },
] as const;

/** Shown for reference beside the minimal page: the styled 404, the smallest page users see. */
const REFERENCE_ROUTES = ["/_not-found"];

const STATS_FILE = ".next/diagnostics/route-bundle-stats.json";

export function readFirstLoad(appDir: string): Map<string, FirstLoad> {
  const file = path.join(appDir, STATS_FILE);
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: the build did not write it`);
  const rows = JSON.parse(fs.readFileSync(file, "utf8")) as BundleRow[];
  const gzipCache = new Map<string, number>();
  const gzipSize = (chunk: string) => {
    let size = gzipCache.get(chunk);
    if (size === undefined) {
      size = zlib.gzipSync(fs.readFileSync(path.join(appDir, chunk))).byteLength;
      gzipCache.set(chunk, size);
    }
    return size;
  };
  const byRoute = new Map<string, FirstLoad>();
  for (const row of rows) {
    const chunks = row.firstLoadChunkPaths.map((file) => ({ file, gzipBytes: gzipSize(file) }));
    byRoute.set(row.route, {
      route: row.route,
      chunks,
      rawBytes: row.firstLoadUncompressedJsBytes,
      gzipBytes: chunks.reduce((sum, c) => sum + c.gzipBytes, 0),
    });
  }
  return byRoute;
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** The report's lines: figures and ratios against the goals, never a verdict that fails the run. */
export function firstLoadReport(appDir: string): string[] {
  const stats = readFirstLoad(appDir);
  const minimal = stats.get(MINIMAL_ROUTE);
  if (!minimal)
    return [`first-load JS: ${MINIMAL_ROUTE} is not in ${STATS_FILE}; no baseline to compare with`];
  const lines = [`first-load JS (${STATS_FILE}; gzip computed here from its chunk files):`];
  const row = (label: string, s: FirstLoad, extra = "") =>
    `  ${label.padEnd(36)}${kib(s.gzipBytes).padStart(11)} gzip ${kib(s.rawBytes).padStart(11)} raw ` +
    `${String(s.chunks.length).padStart(3)} files${extra}`;
  lines.push(row(`${MINIMAL_ROUTE} (minimal page)`, minimal, "  (baseline)"));
  for (const route of REFERENCE_ROUTES) {
    const s = stats.get(route);
    if (s) lines.push(row(`${route} (styled 404)`, s, `  ${(s.gzipBytes / minimal.gzipBytes).toFixed(2)}×`));
  }
  const minimalChunks = new Set(minimal.chunks.map((c) => c.file));
  for (const { route, label, goal } of FIRST_LOAD_GOALS) {
    const s = stats.get(route);
    if (!s) {
      lines.push(`  ${`${route} (${label})`.padEnd(36)} missing: the build has no such page yet`);
      continue;
    }
    const ratio = s.gzipBytes / minimal.gzipBytes;
    const verdict = ratio <= goal ? "within the goal" : "ABOVE the goal";
    lines.push(row(`${route} (${label})`, s, `  ${ratio.toFixed(2)}× (goal ≤ ${goal}×: ${verdict})`));
    // What the page adds to the minimal one, largest first: where to look for a lazy import.
    const own = s.chunks.filter((c) => !minimalChunks.has(c.file)).sort((a, b) => b.gzipBytes - a.gzipBytes);
    const ownTotal = own.reduce((sum, c) => sum + c.gzipBytes, 0);
    lines.push(
      `    beyond the minimal page: ${kib(ownTotal)} gzip in ${own.length} files; largest ` +
        own
          .slice(0, 3)
          .map((c) => `${path.basename(c.file)} ${kib(c.gzipBytes)}`)
          .join(", "),
    );
  }
  return lines;
}
