import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

// The production build and server the benchmark measures.

// The app's own Next (BENCH_APP_DIR may be another checkout): a build run by this tree's Next
// would prerender with this tree's React beside the app's, two Reacts ('reading useContext of null').
const nextBin = (appDir: string) => path.join(appDir, "node_modules/next/dist/bin/next");
// Whatever a build depends on; a change to any of these makes .next stale.
const SOURCES = [
  "app",
  "components",
  "db",
  "lib",
  "public",
  "proxy.ts",
  "middleware.ts",
  "next.config.ts",
  "postcss.config.mjs",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
];

function newestMtime(entry: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file shows as a newer directory
  for (const name of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

/** Why a build is needed, or null when .next is current. */
export function buildReason(appDir: string): string | null {
  if (process.env.BENCH_BUILD === "1") return "BENCH_BUILD=1";
  const buildId = path.join(appDir, ".next/BUILD_ID");
  if (!fs.existsSync(buildId)) return ".next/BUILD_ID is missing";
  const built = fs.statSync(buildId).mtimeMs;
  const changed = SOURCES.find((s) => newestMtime(path.join(appDir, s)) > built);
  return changed ? `${changed} changed since the last build` : null;
}

export async function nextBuild(appDir: string, env: NodeJS.ProcessEnv): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [nextBin(appDir), "build"], {
      cwd: appDir,
      stdio: "inherit",
      // Type checking is `npm test`'s job; the benchmark needs only the compiled app. Same
      // switch as scripts/test.ts (it takes effect where next.config.ts reads it).
      env: { ...env, NODE_ENV: "production", SKIP_BUILD_TYPECHECK: "1" },
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`next build exited with ${code}`)),
    );
  });
}

export type NextServer = { pid: number; url: string; stop: () => Promise<void>; output: () => string };

/** The production server in its own process group, so stopping it ends whatever it spawned. */
export async function startNext(
  appDir: string,
  port: number,
  env: NodeJS.ProcessEnv,
  readyPath: string,
): Promise<NextServer> {
  // The app's own server (scripts/server.ts), as `npm start` runs it.
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(appDir, "node_modules/tsx/dist/cli.mjs"), "scripts/server.ts"],
    {
      cwd: appDir,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
      env: { ...env, NODE_ENV: "production", PORT: String(port) },
    },
  );
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  let exited: number | null | undefined;
  child.on("exit", (code) => {
    exited = code;
  });

  const pid = child.pid!;
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (exited !== undefined) return;
    const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    try {
      process.kill(-pid, "SIGTERM");
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {}
    }, 5000);
    await gone;
    clearTimeout(timer);
  };

  try {
    await waitForReady(url + readyPath, () => exited !== undefined);
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}\n--- next start output ---\n${output}`);
  }
  return { pid, url, stop, output: () => output };
}

/** Polls until the server answers at all, then insists on a 200 from `readyUrl`. */
async function waitForReady(readyUrl: string, hasExited: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (hasExited()) throw new Error("next start exited before it was ready");
    let status: number | undefined;
    try {
      const res = await fetch(readyUrl);
      await res.arrayBuffer();
      status = res.status;
    } catch {
      // not listening yet
    }
    if (status === 200) return;
    if (status !== undefined) throw new Error(`${readyUrl} answered ${status}, expected 200`);
    if (Date.now() > deadline) throw new Error("next start was not ready within 60 s");
    await new Promise((r) => setTimeout(r, 200));
  }
}
