import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ensureChromium } from "./ensure-chromium";

// npm test - every check, in order, stopping at the first failure:
//   typecheck (next typegen, tsc --noEmit), lint (biome check .), layers (the import rule,
//   scripts/layers.ts), vitest (unit + integration projects against a real PostgreSQL), e2e
//   (production build driven by Playwright).
// `npm test -- lint vitest` runs only the named steps. The exit code is 0 only when every
// step that ran passed; the last line always says how the run ended.

type Command = { bin: string; args: string[] };
type Step = {
  name: string;
  label: string;
  commands: Command[];
  /** A check after a zero exit: the reason the step failed anyway, or null. */
  verify?: () => string | null;
};

const bin = (name: string) => path.join(process.cwd(), "node_modules/.bin", name);

// Vitest 4 exits 0 when a globalSetup throws (e.g. the database cannot start): it then runs no
// test at all. Its JSON report tells the truth, so the step passes only when that report says
// tests ran and all passed.
const VITEST_REPORT = path.join(process.cwd(), `.data/vitest-report-${process.pid}.json`);

function verifyVitestReport(): string | null {
  let report: { success?: boolean; numTotalTests?: number; numFailedTests?: number };
  try {
    report = JSON.parse(fs.readFileSync(VITEST_REPORT, "utf8"));
  } catch {
    return "vitest wrote no report";
  } finally {
    fs.rmSync(VITEST_REPORT, { force: true });
  }
  if (!report.numTotalTests) return "vitest ran no tests (did its global setup fail? see above)";
  if (!report.success) return `vitest reports failure (${report.numFailedTests ?? "?"} failed tests)`;
  return null;
}

const STEPS: Step[] = [
  {
    name: "typecheck",
    label: "next typegen && tsc --noEmit",
    // next typegen writes next-env.d.ts and the route types (gitignored, absent on a fresh
    // checkout), so tsc checks exactly what `next build` will. Not incremental: a stale
    // build-info file has been seen to hide errors (see docs/testing-and-ci.md, "`npm test` type-checks
    // once, from scratch, with Next's generated types").
    commands: [
      { bin: bin("next"), args: ["typegen"] },
      { bin: bin("tsc"), args: ["--noEmit", "--incremental", "false"] },
    ],
  },
  {
    name: "lint",
    label: "biome check --error-on-warnings .",
    commands: [{ bin: bin("biome"), args: ["check", "--error-on-warnings", "."] }],
  },
  {
    name: "layers",
    label: "tsx scripts/layers.ts (the import rule)",
    commands: [{ bin: bin("tsx"), args: ["scripts/layers.ts"] }],
  },
  {
    name: "vitest",
    label: "vitest run (unit + integration)",
    commands: [
      {
        bin: bin("vitest"),
        args: ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${VITEST_REPORT}`],
      },
    ],
    verify: verifyVitestReport,
  },
  {
    name: "e2e",
    label: "tsx scripts/e2e.ts (build + Playwright)",
    commands: [{ bin: bin("tsx"), args: ["scripts/e2e.ts"] }],
  },
];

const secs = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

function runCommand(cmd: Command, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(cmd.bin, cmd.args, { stdio: "inherit", env });
    child.on("error", (err) => {
      console.error(`Could not start ${cmd.bin}: ${err.message}`);
      resolve(127);
    });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

async function runStep(step: Step, env: NodeJS.ProcessEnv): Promise<number> {
  for (const cmd of step.commands) {
    const code = await runCommand(cmd, env);
    if (code !== 0) return code;
  }
  const problem = step.verify?.();
  if (problem) {
    console.error(`${step.name}: exit code 0, but ${problem}`);
    return 1;
  }
  return 0;
}

async function main(): Promise<number> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((w) => !STEPS.some((s) => s.name === w));
  if (unknown.length) {
    console.error(`Unknown step(s): ${unknown.join(", ")}. Steps: ${STEPS.map((s) => s.name).join(", ")}`);
    return 2;
  }
  const steps = wanted.length ? STEPS.filter((s) => wanted.includes(s.name)) : STEPS;
  // Before anything else: a machine that cannot run the last step should learn it now, not after
  // minutes of other steps.
  if (steps.some((s) => s.name === "e2e")) {
    const missing = ensureChromium();
    if (missing) {
      console.error(`npm test: ${missing}`);
      return 1;
    }
  }
  fs.mkdirSync(path.dirname(VITEST_REPORT), { recursive: true });
  const done: Array<{ step: Step; ms: number; ok: boolean }> = [];
  // Ctrl-C reaches the running step directly (same process group); we only report.
  process.on("SIGINT", () => {});

  for (const [i, step] of steps.entries()) {
    console.log(`\n=== [${i + 1}/${steps.length}] ${step.name}: ${step.label}`);
    const started = Date.now();
    // The typecheck step already checked every file: `next build` need not do it again
    // (next.config.ts reads SKIP_BUILD_TYPECHECK).
    const typechecked = done.some((d) => d.step.name === "typecheck" && d.ok);
    const env = typechecked ? { ...process.env, SKIP_BUILD_TYPECHECK: "1" } : process.env;
    const code = await runStep(step, env);
    const ms = Date.now() - started;
    done.push({ step, ms, ok: code === 0 });
    if (code === 0) {
      console.log(`=== ${step.name} passed in ${secs(ms)}`);
      continue;
    }
    console.log(`=== ${step.name} FAILED (exit ${code}) after ${secs(ms)}`);
    printSummary(done);
    const skipped = steps.slice(i + 1).map((s) => s.name);
    console.log(
      `npm test: step ${step.name} failed (${step.label})` +
        (skipped.length ? `; not run: ${skipped.join(", ")}` : ""),
    );
    return 1;
  }
  printSummary(done);
  console.log(`npm test: all ${steps.length} step${steps.length === 1 ? "" : "s"} passed`);
  return 0;
}

function printSummary(done: Array<{ step: Step; ms: number; ok: boolean }>): void {
  const total = done.reduce((sum, d) => sum + d.ms, 0);
  console.log("\nSummary:");
  for (const d of done)
    console.log(`  ${d.ok ? "pass" : "FAIL"}  ${d.step.name.padEnd(10)} ${secs(d.ms).padStart(7)}`);
  console.log(`  total      ${secs(total).padStart(7)}`);
}

main().then((code) => process.exit(code));
