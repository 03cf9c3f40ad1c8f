import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";

// The real-world CSVs of the retrieval-quality benchmark (bench/retrieval-quality.ts): public
// datasets nobody here wrote, taken from an npm package at bench time (`npm pack`, the registry
// npm is configured with) and kept under .data/ (gitignored), so later runs reuse them offline.

export const DATASETS_PACKAGE = "vega-datasets@3.2.1";
const CACHE_DIR = path.resolve(".data/bench-datasets/vega-datasets-3.2.1");

/** The package's CSVs the benchmark ingests: from 7 KB to 2 MB, a few rows to 42,000. */
export const DATASET_FILES = [
  "la-riots.csv",
  "gapminder-health-income.csv",
  "stocks.csv",
  "us-employment.csv",
  "disasters.csv",
  "github.csv",
  "seattle-weather.csv",
  "flights-airport.csv",
  "airports.csv",
  "species.csv",
  "birdstrikes.csv",
  "zipcodes.csv",
] as const;
export type DatasetFile = (typeof DATASET_FILES)[number];

const exec = promisify(execFile);

/**
 * The path of each dataset CSV, from the cache or fetched into it; a string saying why when they
 * cannot be had (offline, registry unreachable), so the caller can skip rather than fail.
 */
export async function datasetFiles(): Promise<Record<DatasetFile, string> | string> {
  const paths = Object.fromEntries(DATASET_FILES.map((f) => [f, path.join(CACHE_DIR, f)])) as Record<
    DatasetFile,
    string
  >;
  if (DATASET_FILES.every((f) => fs.existsSync(paths[f]))) return paths;
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  let tarball: string;
  try {
    const { stdout } = await exec(
      "npm",
      ["pack", DATASETS_PACKAGE, "--json", "--pack-destination", CACHE_DIR],
      { timeout: 180_000, maxBuffer: 64 * 1024 * 1024 },
    );
    const filename = (JSON.parse(stdout) as { filename: string }[])[0]?.filename;
    if (!filename) return `npm pack ${DATASETS_PACKAGE} named no tarball`;
    tarball = path.join(CACHE_DIR, path.basename(filename));
  } catch (err) {
    return `npm pack ${DATASETS_PACKAGE} failed: ${packFailure(err as { stderr?: string; message: string })}`;
  }
  try {
    const wanted = new Set(DATASET_FILES.map((f) => `package/data/${f}`));
    for (const entry of tarEntries(gunzipSync(fs.readFileSync(tarball)))) {
      if (!wanted.has(entry.name)) continue;
      // Written under a temporary name first: an interrupted run leaves no half file in the cache.
      const target = path.join(CACHE_DIR, path.basename(entry.name));
      fs.writeFileSync(`${target}.part`, entry.data);
      fs.renameSync(`${target}.part`, target);
    }
  } finally {
    fs.rmSync(tarball, { force: true });
  }
  const missing = DATASET_FILES.filter((f) => !fs.existsSync(paths[f]));
  if (missing.length) return `${DATASETS_PACKAGE} has no ${missing.join(", ")}`;
  return paths;
}

/** The line of npm's error that says why (the request's failure, else its code), else the first. */
function packFailure(err: { stderr?: string; message: string }): string {
  const lines = (err.stderr || err.message)
    .split("\n")
    .map((l) => l.replace(/^npm (error|ERR!)\s*/, "").trim())
    .filter(Boolean);
  return (
    lines.find((l) => /reason:|E404|not found|timed out/i.test(l)) ??
    lines.find((l) => l.startsWith("code ")) ??
    lines[0] ??
    "no reason given"
  );
}

/**
 * The regular files of an uncompressed tar archive (ustar, as npm packs: 512-byte headers, the
 * name split into prefix and name, octal sizes). Extended (pax) headers are skipped: npm's paths
 * fit the plain fields.
 */
export function* tarEntries(tar: Buffer): Generator<{ name: string; data: Buffer }> {
  const text = (from: number, length: number) => {
    const field = tar.subarray(from, from + length);
    const end = field.indexOf(0);
    return field.subarray(0, end < 0 ? length : end).toString("utf8");
  };
  for (let at = 0; at + 512 <= tar.length; ) {
    if (tar.subarray(at, at + 512).every((b) => b === 0)) break;
    const size = Number.parseInt(text(at + 124, 12).trim() || "0", 8);
    const type = String.fromCharCode(tar[at + 156]!);
    const prefix = text(at + 345, 155);
    const name = prefix ? `${prefix}/${text(at, 100)}` : text(at, 100);
    const start = at + 512;
    if (type === "0" || type === "\0") yield { name, data: tar.subarray(start, start + size) };
    at = start + Math.ceil(size / 512) * 512;
  }
}
