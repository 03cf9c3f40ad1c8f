import "server-only";
import crypto from "node:crypto";
import path from "node:path";
import * as esbuild from "esbuild";
import {
  PREVIEW_BUILD_CONCURRENCY,
  PREVIEW_BUILD_TIMEOUT_MS,
  PREVIEW_BUNDLE_MAX_BYTES,
  PREVIEW_ISSUES_MAX,
} from "@/lib/constants";
import { type MessageKey, messages } from "@/lib/messages";
import { formatMegabytes } from "@/lib/plans/features";
import { fileTypeOf } from "@/lib/space/files";
import { fillTemplate } from "@/lib/text";
import { APP_CLIENT_SOURCE, CLIENT_SPECIFIER } from "./client-source";
import { PREVIEW_RUNTIME_SOURCE, RUNTIME_SPECIFIER } from "./runtime-source";
import { compileTailwind, scanCandidates, TailwindImportError, usesTailwind } from "./tailwind";
import type { PreviewIssue } from "./types";
import { VENDOR_MODULES, vendorShim } from "./vendor";

// One version's files -> one script and one stylesheet, built by esbuild from memory. Every
// import is resolved by the plugin below, against the version's files only: nothing is read from
// the disk, nothing fetched, and an import of anything else ("fs", a URL, a path out of the
// app, a package we do not ship) fails the build with a readable app error. Bounded: a time limit
// (esbuild cancels the build), a size limit on the output, and a few builds at a time.

export type PreviewBuild =
  | { ok: true; js: string; css: string; issues: []; durationMs: number }
  | { ok: false; issues: PreviewIssue[]; durationMs: number; timedOut?: boolean };

/** The files a build sees: path -> content. `functions/` (backend code, run by Deno) is left out. */
export type SourceFiles = Map<string, string>;

const SCRIPT_EXT = [".jsx", ".tsx", ".js", ".ts", ".mjs"];
const PROBE_EXT = [...SCRIPT_EXT, ".json", ".css"];
const LOADERS: Record<string, esbuild.Loader> = {
  ".jsx": "jsx",
  ".js": "jsx", // components are often JSX in .js files
  ".mjs": "jsx",
  ".tsx": "tsx",
  ".ts": "ts",
  ".json": "json",
  ".css": "css",
};

/** Whether a path of the app takes part in its preview. */
export function isPreviewFile(p: string): boolean {
  return fileTypeOf(p) !== "functions" && LOADERS[path.posix.extname(p).toLowerCase()] !== undefined;
}

const text = (key: MessageKey, vars: Record<string, string | number> = {}) =>
  fillTemplate(messages[key], vars);

/** The pages of a version: `pages/Home.jsx` is the page "Home", at `#/Home`. */
export function pagesOf(files: SourceFiles): { name: string; path: string }[] {
  const found = [...files.keys()]
    .filter((p) => p.startsWith("pages/") && SCRIPT_EXT.includes(path.posix.extname(p).toLowerCase()))
    .map((p) => ({ name: p.slice("pages/".length).replace(/\.[^./]+$/, ""), path: p }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const seen = new Set<string>();
  return found.filter((p) => !seen.has(p.name) && seen.add(p.name));
}

/** The page `#/` shows: Home (or Index) when there is one, else the first by name. */
export function defaultPageOf(pages: { name: string }[]): string | null {
  const lower = (n: string) => n.toLowerCase();
  return (
    pages.find((p) => lower(p.name) === "home")?.name ??
    pages.find((p) => lower(p.name) === "index")?.name ??
    pages[0]?.name ??
    null
  );
}

const layoutOf = (files: SourceFiles) =>
  [...files.keys()].sort().find((p) => !p.includes("/") && /^layout\.(jsx|tsx|js|ts)$/i.test(p)) ?? null;
const globalsOf = (files: SourceFiles) =>
  [...files.keys()].sort().find((p) => fileTypeOf(p) === "globals css") ?? null;

/** A version without a stylesheet gets Tailwind's, as the assistant writes Tailwind classes. */
const DEFAULT_CSS = "preview:default.css";

function entrySource(files: SourceFiles): string {
  const pages = pagesOf(files);
  const layout = layoutOf(files);
  const globals = globalsOf(files);
  const lines = [`import { startPreview } from ${JSON.stringify(RUNTIME_SPECIFIER)};`];
  lines.push(`import ${JSON.stringify(globals ? `@/${globals}` : DEFAULT_CSS)};`);
  if (layout) lines.push(`import * as layout from ${JSON.stringify(`@/${layout}`)};`);
  // Each page is evaluated when it is first shown: one that throws as it loads is an error of
  // that page, the others still work.
  const list = pages.map(
    (p) =>
      `  { name: ${JSON.stringify(p.name)}, path: ${JSON.stringify(p.path)}, load: () => import(${JSON.stringify(`@/${p.path}`)}) },`,
  );
  lines.push(
    "startPreview({",
    `  defaultPage: ${JSON.stringify(defaultPageOf(pages))},`,
    `  layout: ${layout ? "layout" : "null"},`,
    "  pages: [",
    ...list,
    "  ],",
    "});",
  );
  return lines.join("\n");
}

/** A file of the app named by an import: the exact path, or with an extension, or its index. */
function probe(files: SourceFiles, p: string): string | null {
  if (files.has(p)) return p;
  for (const ext of PROBE_EXT) if (files.has(p + ext)) return p + ext;
  for (const ext of SCRIPT_EXT) if (files.has(`${p}/index${ext}`)) return `${p}/index${ext}`;
  return null;
}

const NS_APP = "app";
const NS_PREVIEW = "preview";
const NS_VENDOR = "vendor";
const URLISH = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

function virtualFiles(files: SourceFiles, state: { cancelled: boolean }): esbuild.Plugin {
  let candidates: string[] | null = null;
  const sources = () =>
    [...files].filter(([p]) => SCRIPT_EXT.includes(path.posix.extname(p).toLowerCase())).map(([, c]) => c);
  return {
    name: "space-preview",
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (state.cancelled) return { errors: [{ text: "cancelled" }] };
        const spec = args.path;
        if (args.kind === "entry-point") return { path: "entry", namespace: NS_PREVIEW };
        if (args.namespace === NS_PREVIEW && (spec === RUNTIME_SPECIFIER || spec === DEFAULT_CSS)) {
          return { path: spec, namespace: NS_PREVIEW };
        }
        // The data client: the one module of ours app code may import (client-source.ts).
        if (spec === CLIENT_SPECIFIER) return { path: spec, namespace: NS_PREVIEW };
        // A stylesheet's images and fonts are the browser's to load (under the document's CSP); code never is.
        if (URLISH.test(spec) && (args.kind === "url-token" || args.kind === "import-rule")) {
          if (/^(https:|data:)/i.test(spec)) return { path: spec, external: true };
        }
        if (URLISH.test(spec) && !spec.startsWith("node:")) {
          return { errors: [{ text: text("previewImportUrl", { specifier: spec }) }] };
        }
        const vendor = VENDOR_MODULES[spec];
        if (vendor) return { path: spec, namespace: NS_VENDOR, pluginData: vendor };
        let target: string;
        if (spec.startsWith("./") || spec.startsWith("../") || spec === "." || spec === "..") {
          const from = args.namespace === NS_APP ? path.posix.dirname(args.importer) : ".";
          target = path.posix.normalize(path.posix.join(from, spec));
        } else if (spec.startsWith("@/")) {
          target = path.posix.normalize(spec.slice(2));
        } else if (spec.startsWith("/")) {
          target = path.posix.normalize(spec.slice(1));
        } else {
          return {
            errors: [
              {
                text: text("previewImportPackage", {
                  specifier: spec,
                  allowed: [...Object.keys(VENDOR_MODULES), CLIENT_SPECIFIER].join(", "),
                }),
              },
            ],
          };
        }
        if (target === ".." || target.startsWith("../")) {
          return { errors: [{ text: text("previewImportOutside", { specifier: spec }) }] };
        }
        const found = probe(files, target);
        if (!found || !isPreviewFile(found)) {
          return { errors: [{ text: text("previewImportMissing", { specifier: spec }) }] };
        }
        return { path: found, namespace: NS_APP };
      });

      build.onLoad({ filter: /.*/, namespace: NS_VENDOR }, (args) => ({
        contents: vendorShim(args.pluginData as string),
        loader: "js",
      }));
      build.onLoad({ filter: /.*/, namespace: NS_PREVIEW }, async (args) => {
        if (args.path === "entry") return { contents: entrySource(files), loader: "js" };
        if (args.path === DEFAULT_CSS) {
          candidates ??= scanCandidates(sources());
          return {
            contents: await compileTailwind(
              "default.css",
              '@import "tailwindcss";',
              () => undefined,
              candidates,
            ),
            loader: "css",
          };
        }
        if (args.path === CLIENT_SPECIFIER) return { contents: APP_CLIENT_SOURCE, loader: "js" };
        return { contents: PREVIEW_RUNTIME_SOURCE, loader: "js" };
      });
      build.onLoad({ filter: /.*/, namespace: NS_APP }, async (args) => {
        const contents = files.get(args.path) ?? "";
        const loader = LOADERS[path.posix.extname(args.path).toLowerCase()] ?? "js";
        if (loader !== "css" || !usesTailwind(contents)) return { contents, loader };
        candidates ??= scanCandidates(sources());
        try {
          return {
            contents: await compileTailwind(args.path, contents, (p) => files.get(p), candidates),
            loader,
          };
        } catch (err) {
          const message =
            err instanceof TailwindImportError
              ? text("previewImportMissing", { specifier: err.specifier })
              : err instanceof Error
                ? err.message
                : String(err);
          return { errors: [{ text: message }] };
        }
      });
    },
  };
}

/** "App error: title, details, componentName" of one of esbuild's messages. */
function issueOf(m: esbuild.Message): PreviewIssue {
  const loc = m.location;
  const file = loc?.file.replace(/^[a-z]+:/, "") ?? null;
  const details: string[] = [];
  if (loc) {
    details.push(`${file}:${loc.line}:${loc.column + 1}`);
    if (loc.lineText) details.push(`  ${loc.lineText}`, `  ${" ".repeat(loc.column)}^`);
  }
  for (const note of m.notes) if (note.text) details.push(note.text);
  const inApp = file && file !== "entry" && file !== CLIENT_SPECIFIER && !file.startsWith("preview:");
  return {
    title: m.text,
    details: details.join("\n"),
    componentName: inApp ? path.posix.basename(file).replace(/\.[^.]+$/, "") : null,
    source: "build",
  };
}

// A few builds at a time: each is CPU for esbuild's process, and the server has other work.
let running = 0;
const waiting: (() => void)[] = [];
async function slot<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= PREVIEW_BUILD_CONCURRENCY) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

export type BuildLimits = { timeoutMs?: number; maxBytes?: number };

/** Builds a version's files into the app's script and stylesheet, or says why it cannot. */
export function buildPreview(files: SourceFiles, limits: BuildLimits = {}): Promise<PreviewBuild> {
  return slot(() => runBuild(files, limits));
}

async function runBuild(files: SourceFiles, limits: BuildLimits): Promise<PreviewBuild> {
  try {
    return await buildOnce(files, limits);
  } catch (err) {
    if (!/^The service (was stopped|is no longer running)/.test((err as Error)?.message ?? "")) throw err;
    // esbuild's process ended under the build (killed, or stopped by another user of the module
    // in this process): the module keeps answering "no longer running" until it is stopped, which
    // lets the next call start a new process. The build is tried once more on it.
    await esbuild.stop();
    return buildOnce(files, limits);
  }
}

async function buildOnce(all: SourceFiles, limits: BuildLimits): Promise<PreviewBuild> {
  const started = performance.now();
  const files: SourceFiles = new Map([...all].filter(([p]) => isPreviewFile(p)));
  const state = { cancelled: false };
  const timeoutMs = limits.timeoutMs ?? PREVIEW_BUILD_TIMEOUT_MS;
  const maxBytes = limits.maxBytes ?? PREVIEW_BUNDLE_MAX_BYTES;
  const elapsed = () => Math.round(performance.now() - started);
  const ctx = await esbuild.context({
    entryPoints: ["entry"],
    bundle: true,
    write: false,
    outdir: "/preview",
    entryNames: "app",
    format: "iife",
    platform: "browser",
    target: "es2020",
    jsx: "automatic",
    // Names stay, so errors name the component; whitespace is not worth shipping.
    keepNames: true,
    minifyWhitespace: true,
    charset: "utf8",
    legalComments: "none",
    define: { "process.env.NODE_ENV": '"production"' },
    tsconfigRaw: "{}",
    logLevel: "silent",
    plugins: [virtualFiles(files, state)],
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  try {
    const result = await Promise.race([ctx.rebuild().catch((err: unknown) => err), timeout]);
    if (result === "timeout") {
      state.cancelled = true;
      void ctx.cancel().catch(() => {});
      const title = text("previewBuildTimeout", { seconds: Math.round(timeoutMs / 100) / 10 });
      return {
        ok: false,
        timedOut: true,
        issues: [{ title, details: "", componentName: null, source: "build" }],
        durationMs: elapsed(),
      };
    }
    if (!(result && typeof result === "object" && "outputFiles" in result)) {
      const errors = (result as { errors?: esbuild.Message[] })?.errors;
      if (!errors?.length) throw result;
      return { ok: false, issues: errors.slice(0, PREVIEW_ISSUES_MAX).map(issueOf), durationMs: elapsed() };
    }
    const outputs = (result as esbuild.BuildResult<{ write: false }>).outputFiles;
    const js = outputs.find((f) => f.path.endsWith(".js"))?.text ?? "";
    const css = outputs.find((f) => f.path.endsWith(".css"))?.text ?? "";
    const size = Buffer.byteLength(js) + Buffer.byteLength(css);
    if (size > maxBytes) {
      const title = text("previewBundleTooLarge", { size: formatMegabytes(maxBytes) });
      return {
        ok: false,
        issues: [{ title, details: "", componentName: null, source: "build" }],
        durationMs: elapsed(),
      };
    }
    return { ok: true, js, css, issues: [], durationMs: elapsed() };
  } finally {
    clearTimeout(timer);
    void ctx.dispose().catch(() => {});
  }
}

/**
 * What every bundle depends on besides the app's files: the runtime's and the data client's texts, esbuild's version,
 * this file's rules (BUILD_RULES). Part of the cache key, so a change of any of them rebuilds.
 */
const BUILD_RULES = "space-preview-build-v1";
export const BUILD_LOGIC_HASH = crypto
  .createHash("sha256")
  .update(`${BUILD_RULES}\n${esbuild.version}\n${PREVIEW_RUNTIME_SOURCE}\n${APP_CLIENT_SOURCE}`)
  .digest("hex");
