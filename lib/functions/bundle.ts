import "server-only";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import * as esbuild from "esbuild";
import { AppError } from "@/lib/errors";
import { FUNCTION_CLIENT_SOURCE, FUNCTION_CLIENT_SPECIFIER } from "./client-source";
import { HARNESS_SOURCE } from "./harness-source";

// esbuild's namespace of our one module: no file path reaches its loader.
const CLIENT_NAMESPACE = "function-app-client";

/** A function's code made ready to run: its own directory, holding only our harness and its code. */
export type FunctionBundle = { dir: string; hash: string };

/**
 * The function's file as one module with no imports, built by esbuild from memory. Deno checks its
 * read permission for imports made while running, but not for the static imports of the code it
 * is started with: `import x from "/etc/passwd.json" with { type: "json" }` would read any file.
 * So every import is refused here (a later version may allow packages, vendored at deploy), but
 * exactly "@app/client": the app's data client, our own source put into the bundle.
 */
export async function buildFunctionCode(name: string, code: string): Promise<string> {
  const loader: esbuild.Loader = name.endsWith(".js") ? "js" : "ts";
  try {
    const result = await esbuild.build({
      stdin: { contents: code, loader, sourcefile: name },
      bundle: true,
      write: false,
      format: "esm",
      platform: "neutral",
      target: "esnext",
      charset: "utf8",
      legalComments: "none",
      tsconfigRaw: "{}",
      logLevel: "silent",
      plugins: [
        {
          name: "no-imports",
          setup(build) {
            // The exact name only: "@app/client/x", "@app/client?x" and the like are refused below.
            build.onResolve({ filter: /.*/ }, (args) =>
              args.path === FUNCTION_CLIENT_SPECIFIER && args.namespace !== CLIENT_NAMESPACE
                ? { path: FUNCTION_CLIENT_SPECIFIER, namespace: CLIENT_NAMESPACE }
                : undefined,
            );
            build.onLoad({ filter: /.*/, namespace: CLIENT_NAMESPACE }, () => ({
              contents: FUNCTION_CLIENT_SOURCE,
              loader: "js",
            }));
            build.onResolve({ filter: /.*/ }, (args) => ({
              errors: [{ text: `import:${args.path}` }],
            }));
          },
        },
      ],
    });
    return result.outputFiles[0].text;
  } catch (err) {
    const first = (err as { errors?: esbuild.Message[] }).errors?.[0];
    if (first?.text.startsWith("import:")) {
      throw new AppError("BAD_REQUEST", {
        key: "functionImportsRefused",
        vars: { specifier: first.text.slice("import:".length) },
      });
    }
    const where = first?.location ? `${first.location.line}:${first.location.column} ` : "";
    throw new AppError("BAD_REQUEST", {
      key: "functionBuildFailed",
      vars: { details: first ? `${where}${first.text}` : "unknown error" },
    });
  }
}

/**
 * Writes the bundle of one deployed version of one app's function under `root`, once: the
 * directory's name is a hash of the app, the name, the code, the harness and the data client, so
 * two apps with the same code still have two directories (each process may read its own and no other).
 */
export async function writeFunctionBundle(
  root: string,
  appId: string,
  name: string,
  code: string,
): Promise<FunctionBundle> {
  const hash = createHash("sha256")
    .update(`${appId}\0${name}\0${code}\0${HARNESS_SOURCE}\0${FUNCTION_CLIENT_SOURCE}`)
    .digest("hex")
    .slice(0, 32);
  const dir = path.join(root, hash);
  if (existsSync(path.join(dir, "harness.js"))) return { dir, hash };
  const built = await buildFunctionCode(name, code);
  // Written beside and renamed into place: a process never sees half a bundle.
  const staging = `${dir}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await mkdir(staging, { recursive: true });
  await writeFile(path.join(staging, "function.js"), built);
  await writeFile(path.join(staging, "harness.js"), HARNESS_SOURCE);
  try {
    await rename(staging, dir);
  } catch {
    // Another call wrote the same bundle first: same content, keep it.
    await rm(staging, { recursive: true, force: true });
  }
  return { dir, hash };
}
