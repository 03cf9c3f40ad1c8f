import "server-only";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

let cached: string | undefined;

/**
 * The path of the Deno executable the functions run in. The `deno` package ships its binary in a
 * platform package (@deno/<os>-<arch>[-glibc|-musl]); its own `deno` file is a copy made by its
 * install script or on first use, which we neither run nor rely on. Resolved from the project's
 * node_modules (not from this file: a bundler may have moved it), once per process.
 */
export function denoBinaryPath(): string {
  if (cached) return cached;
  const require = createRequire(path.join(process.cwd(), "package.json"));
  const file = os.platform() === "win32" ? "deno.exe" : "deno";
  const candidates: string[] = [];
  for (const target of platformTargets()) {
    try {
      candidates.push(path.join(path.dirname(require.resolve(`@deno/${target}/package.json`)), file));
    } catch {
      // Not installed for this target: the next one.
    }
  }
  try {
    candidates.push(path.join(path.dirname(require.resolve("deno/package.json")), file));
  } catch {
    // The package is missing: the error below says so.
  }
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error(`No Deno executable for ${os.platform()}-${os.arch()} (npm package "deno")`);
  cached = found;
  return cached;
}

/** The names of the deno package's platform packages that fit this machine, best first. */
function platformTargets(): string[] {
  const arch = os.arch() === "arm64" ? "arm64" : "x64";
  switch (os.platform()) {
    case "linux":
      return isMusl() ? [`linux-${arch}-musl`, `linux-${arch}-glibc`] : [`linux-${arch}-glibc`];
    case "darwin":
      return [`darwin-${arch}`];
    case "win32":
      return [`win32-${arch}`];
    default:
      return [];
  }
}

function isMusl(): boolean {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return !report?.header?.glibcVersionRuntime;
}
