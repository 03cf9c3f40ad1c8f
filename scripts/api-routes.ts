import fs from "node:fs";
import path from "node:path";

// The registry of API route modules that /api/openapi.json is built from
// (app/api/routes.generated.ts). Next bundles route handlers statically, so a production
// server cannot list app/api at run time: the list is written here, from the files on disk, as
// static imports the bundler can see. next.config.ts runs this before next dev, next build and
// next typegen; `npm run api:routes` runs it by hand; tests/integration/openapi.test.ts fails
// when the committed file is out of date.

export const GENERATED_FILE = "app/api/routes.generated.ts";
export const API_DIR = "app/api";
/** The document's own route: it is described, but not imported by the registry it reads. */
export const OPENAPI_ROUTE_FILE = "app/api/openapi.json/route.ts";

const ROUTE_FILE = /^route\.(ts|tsx|js|mjs)$/;
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const LINE_WIDTH = 110; // biome.json's formatter.lineWidth

/** Every route file under app/api, relative to the project, `/`-separated, in code-point order. */
export function listRouteFiles(root: string): string[] {
  const dir = path.join(root, API_DIR);
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .map((f) => f.split(path.sep).join("/"))
    .filter((f) => ROUTE_FILE.test(path.posix.basename(f)))
    .map((f) => `${API_DIR}/${f}`)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The URL template of a route file: `[appId]` -> `{appId}`, `[...slug]` and `[[...slug]]` ->
 * `{slug}`; route groups `(name)` are not part of the URL.
 */
export function urlPathOf(file: string): string {
  const segments = path.posix
    .dirname(file)
    .split("/")
    .filter((s) => !/^\(.*\)$/.test(s))
    .map((s) => s.replace(/^\[{1,2}(?:\.\.\.)?([^\]]+)\]{1,2}$/, "{$1}"));
  return `/${segments.slice(1).join("/")}`;
}

export type MethodDocs = { summary: string; description?: string };

/**
 * The comment that names each handler (`// POST /api/x?appId= - what it does`), read
 * from the source: the one description a route without a `summary` has, which is gone at run time.
 * The comment's own path is ignored; the URL comes from the file's place.
 */
export function docComments(source: string): Partial<Record<string, MethodDocs>> {
  const methods = METHODS.join("|");
  const head = new RegExp(
    `^//\\s+((?:${methods})(?:\\s*[|,]\\s*(?:${methods}))*)\\s+/\\S*\\s+[-–—]\\s+(.+)$`,
  );
  const lines = source.split(/\r?\n/).map((l) => l.trim());
  const out: Partial<Record<string, MethodDocs>> = {};
  for (let i = 0; i < lines.length; i++) {
    const m = head.exec(lines[i]!);
    if (!m) continue;
    const parts = [m[2]!.trim()];
    // The sentence may go on over the next comment lines.
    for (let j = i + 1; j < lines.length && /^\/\/\s*\S/.test(lines[j]!) && !head.test(lines[j]!); j++) {
      parts.push(lines[j]!.replace(/^\/\/\s*/, ""));
    }
    const text = parts.join(" ");
    // The summary is the first sentence ("e.g." does not end one).
    const end = text.search(/\.(\s+[A-Z]|$)/);
    const first = (end === -1 ? text : text.slice(0, end)).trim();
    const summary = first.charAt(0).toUpperCase() + first.slice(1);
    const full = text.charAt(0).toUpperCase() + text.slice(1);
    const docs: MethodDocs =
      full.replace(/\.$/, "") === summary ? { summary } : { summary, description: full };
    for (const method of m[1]!.split(/\s*[|,]\s*/)) out[method] ??= docs;
  }
  return out;
}

// A string literal as Biome writes it: double quotes, unless single ones need fewer escapes.
function literal(s: string): string {
  const doubles = (s.match(/"/g) ?? []).length;
  const singles = (s.match(/'/g) ?? []).length;
  if (doubles <= singles) return JSON.stringify(s);
  return `'${JSON.stringify(s).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

// `key: value,` on one line, or, when that is too long, the value on the next line (as Biome breaks it).
function prop(indent: string, key: string, value: string): string[] {
  const one = `${indent}${key}: ${value},`;
  return one.length <= LINE_WIDTH ? [one] : [`${indent}${key}:`, `${indent}  ${value},`];
}

function renderDocs(docs: Partial<Record<string, MethodDocs>>, indent: string): string[] {
  const methods = METHODS.filter((m) => docs[m]);
  if (methods.length === 0) return [`${indent}docs: {},`];
  const out = [`${indent}docs: {`];
  for (const method of methods) {
    const d = docs[method]!;
    out.push(`${indent}  ${method}: {`, ...prop(`${indent}    `, "summary", literal(d.summary)));
    if (d.description) out.push(...prop(`${indent}    `, "description", literal(d.description)));
    out.push(`${indent}  },`);
  }
  out.push(`${indent}},`);
  return out;
}

function renderLoad(file: string, indent: string): string[] {
  const specifier = literal(`@/${file.replace(/\.(ts|tsx|js|mjs)$/, "")}`);
  const one = `${indent}load: () => import(${specifier}),`;
  if (one.length <= LINE_WIDTH) return [one];
  const two = `${indent}  import(${specifier}),`;
  if (two.length <= LINE_WIDTH) return [`${indent}load: () =>`, two];
  return [`${indent}load: () =>`, `${indent}  import(`, `${indent}    ${specifier}`, `${indent}  ),`];
}

/** The generated file's text, for the route files on disk now. */
export function renderApiRoutes(root: string): string {
  const files = listRouteFiles(root);
  const docsOf = (file: string) => docComments(fs.readFileSync(path.join(root, file), "utf8"));
  const out = [
    "// Generated by scripts/gen-api-routes.ts from app/api/**/route.ts: do not edit. `npm run api:routes`",
    "// rewrites it; next dev, next build and next typegen run it first (next.config.ts).",
    "",
    'import type { ApiRoute, ApiRouteInfo } from "@/lib/api/openapi";',
    "",
    "/** Every route module under app/api, but the document's own route. */",
    "export const apiRoutes: ApiRoute[] = [",
  ];
  for (const file of files.filter((f) => f !== OPENAPI_ROUTE_FILE)) {
    out.push(
      "  {",
      ...prop("    ", "file", literal(file)),
      ...prop("    ", "path", literal(urlPathOf(file))),
      ...renderDocs(docsOf(file), "    "),
      ...renderLoad(file, "    "),
      "  },",
    );
  }
  out.push("];", "");
  if (files.includes(OPENAPI_ROUTE_FILE)) {
    out.push(
      "/** The document's own route: it hands its module over itself (importing it here would be a cycle). */",
      "export const openApiRoute: ApiRouteInfo | null = {",
      ...prop("  ", "file", literal(OPENAPI_ROUTE_FILE)),
      ...prop("  ", "path", literal(urlPathOf(OPENAPI_ROUTE_FILE))),
      ...renderDocs(docsOf(OPENAPI_ROUTE_FILE), "  "),
      "};",
    );
  } else {
    out.push("export const openApiRoute: ApiRouteInfo | null = null;");
  }
  return `${out.join("\n")}\n`;
}

/** Writes the generated file when its text changed; says whether it did. */
export function writeApiRoutes(root: string): boolean {
  const target = path.join(root, GENERATED_FILE);
  const text = renderApiRoutes(root);
  const current = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : null;
  if (current === text) return false;
  // Written aside and renamed: a reader (a running dev server, a parallel build) never sees half a file.
  const tmp = `${target}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, target);
  return true;
}
