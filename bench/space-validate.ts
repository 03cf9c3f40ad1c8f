import * as esbuild from "esbuild";
import { buildPreview } from "@/lib/space/preview/build";
import { validateFiles } from "@/lib/validation/validate";
import { brokenApps, cleanApps, type Files } from "../tests/support/validation-fixtures";
import { median, percentile } from "./stats";

// The validation benchmark of space apps, over the fixture apps of tests/fixtures/validation/
// (broken apps with one known defect each, clean apps): figures only, never pass/fail.
//  - detection rate: the broken apps whose defect is reported by its detector at its file and line
//    (goal 100 %), by kind of defect;
//  - false positives: every other issue, on a clean app or beside a broken app's defect (goal 0);
//  - the time to validate one app (lib/validation/validate.ts: the preview's build, ESLint and
//    the schema checks in the capped worker), warm, against the preview build of the same files
//    alone (one of its detectors); the first validation of a process (the worker starts and loads
//    ESLint) apart.
//
// Alone: node --conditions=react-server --import tsx bench/space-validate.ts (no database).

const log = (line = "") => console.log(line);
const ms = (x: number) => `${x.toFixed(0)} ms`;
const where = (i: { detectorId: string; file: string | null; line: number | null }) =>
  `${i.detectorId} ${i.file ?? "-"}:${i.line ?? "-"}`;

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}

async function main() {
  const broken = brokenApps();
  const clean = cleanApps();
  log(
    `validation of space apps: ${broken.length} broken fixture apps (one defect each), ${clean.size} clean`,
  );

  const first = await timed(() => validateFiles([...clean.values()][0]!));
  const times: number[] = [];
  const builds: number[] = [];
  const byKind = new Map<string, { found: number; total: number }>();
  const missed: string[] = [];
  const falsePositives: string[] = [];

  const run = async (name: string, files: Files, options: Parameters<typeof validateFiles>[1]) => {
    // The build alone first: esbuild's own work is then warm for both.
    builds.push((await timed(() => buildPreview(files))).ms);
    const { value, ms: took } = await timed(() => validateFiles(files, options));
    times.push(took);
    return value.issues.map((i) => ({ ...i, app: name }));
  };

  for (const app of broken) {
    const issues = await run(app.id, app.files, { runtimeErrors: app.runtimeErrors });
    const hit = issues.find((i) => where(i) === where(app.expect));
    const kind = byKind.get(app.kind) ?? { found: 0, total: 0 };
    kind.total++;
    if (hit) kind.found++;
    else
      missed.push(
        `${app.id}: expected ${where(app.expect)}, got ${issues.map(where).join("; ") || "nothing"}`,
      );
    byKind.set(app.kind, kind);
    for (const i of issues) if (i !== hit) falsePositives.push(`${app.id}: ${where(i)} ${i.message}`);
  }
  for (const [name, files] of clean) {
    for (const i of await run(name, files, {}))
      falsePositives.push(`${name} (clean): ${where(i)} ${i.message}`);
  }

  const found = [...byKind.values()].reduce((s, k) => s + k.found, 0);
  log(
    `  detection rate: ${found}/${broken.length} = ${((100 * found) / broken.length).toFixed(1)} % (goal 100 %)`,
  );
  for (const [kind, k] of byKind) log(`    ${kind.padEnd(16)} ${k.found}/${k.total}`);
  for (const m of missed) log(`    missed ${m}`);
  log(`  false positives: ${falsePositives.length} (goal 0)`);
  for (const f of falsePositives) log(`    ${f}`);
  log(
    `  time per app (${times.length} apps, worker warm): median ${ms(median(times))}, p95 ${ms(percentile(times, 95))}; ` +
      `the preview build alone: median ${ms(median(builds))}, p95 ${ms(percentile(builds, 95))}`,
  );
  log(`  first validation in a process (the worker starts, loads ESLint): ${ms(first.ms)}`);
  await esbuild.stop();
}

main().then(
  // The idle worker is unreferenced; the process ends once the work is done.
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
