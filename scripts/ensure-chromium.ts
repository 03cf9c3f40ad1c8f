import { spawnSync } from "node:child_process";
import fs from "node:fs";

// The end-to-end tests drive Debian's Chromium (Playwright's own browser download cannot work
// on machines without internet). When it is missing, `npm test` installs it where it can (as
// root, or with password-less sudo) and otherwise stops at once with the one command to run.

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const INSTALL = "apt-get update && apt-get install -y chromium";

function run(argv: string[]): boolean {
  const r = spawnSync(argv[0]!, argv.slice(1), {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return r.status === 0;
}

/** Returns null when Chromium is there (or was just installed), else why it is not. */
export function ensureChromium(): string | null {
  if (fs.existsSync(CHROMIUM)) return null;
  if (process.env.CHROMIUM_PATH) return `CHROMIUM_PATH=${CHROMIUM} does not exist.`;
  const hasAptGet = spawnSync("sh", ["-c", "command -v apt-get"]).status === 0;
  if (!hasAptGet) return `No Chromium at ${CHROMIUM} and no apt-get: install Chromium and set CHROMIUM_PATH.`;
  const root = process.getuid?.() === 0;
  const sudo = !root && spawnSync("sudo", ["-n", "true"]).status === 0;
  if (!root && !sudo)
    return `No Chromium at ${CHROMIUM}: run \`sudo sh -c '${INSTALL}'\`, then npm test again.`;
  console.log(`[chromium] not found at ${CHROMIUM}: installing Debian's chromium package (about a minute)`);
  const prefix = root ? [] : ["sudo", "-n"];
  const ok =
    run([...prefix, "apt-get", "update", "-qq"]) &&
    run([...prefix, "apt-get", "install", "-y", "-qq", "chromium"]);
  if (!ok || !fs.existsSync(CHROMIUM))
    return `Installing chromium failed: run \`${INSTALL}\` as root and read its errors.`;
  console.log(`[chromium] installed: ${CHROMIUM}`);
  return null;
}
