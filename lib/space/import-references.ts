// Which files of a space app import a given one, and those files with their import statements of
// it removed: what a delete in the Code panel offers to update. Client-safe and pure. Imports
// resolve as the preview's bundler resolves them (lib/space/preview/build.ts): `./` and `../`
// from the importer's folder, `@/` and `/` from the app's root; the exact path, then with a
// script, JSON or CSS extension, then a folder's index.

const SCRIPT_EXT = [".jsx", ".tsx", ".js", ".ts", ".mjs"];
const PROBE_EXT = [...SCRIPT_EXT, ".json", ".css"];

/**
 * One import or re-export statement at the start of a line: `import x from "a"`, `import "a"`,
 * `export { y } from "a"`, over several lines too. The clause before `from` holds no quote,
 * semicolon or parenthesis, so a match never runs on into the code after a statement.
 */
const STATEMENT =
  /^[ \t]*(?:import|export)\b(?:[^;'"`()]*?\bfrom)?\s*(['"])([^'"\n]+)\1[ \t]*;?[ \t]*(?:\r?\n|$)/gm;

function normalize(parts: string[]): string | null {
  const out: string[] = [];
  for (const p of parts) {
    if (p === "" || p === ".") continue;
    if (p === "..") {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(p);
  }
  return out.join("/");
}

/** The path a specifier names, before probing; null for a package or a path outside the app. */
export function importTarget(importer: string, spec: string): string | null {
  if (spec.startsWith("./") || spec.startsWith("../") || spec === "." || spec === "..") {
    const dir = importer.includes("/") ? importer.slice(0, importer.lastIndexOf("/")).split("/") : [];
    return normalize([...dir, ...spec.split("/")]);
  }
  if (spec.startsWith("@/")) return normalize(spec.slice(2).split("/"));
  if (spec.startsWith("/") && !spec.startsWith("//")) return normalize(spec.slice(1).split("/"));
  return null;
}

/** The file of `paths` an import of `spec` from `importer` loads, or null. */
export function resolveImport(paths: ReadonlySet<string>, importer: string, spec: string): string | null {
  const p = importTarget(importer, spec);
  if (p === null) return null;
  if (paths.has(p)) return p;
  for (const ext of PROBE_EXT) if (paths.has(p + ext)) return p + ext;
  for (const ext of SCRIPT_EXT) if (paths.has(`${p}/index${ext}`)) return `${p}/index${ext}`;
  return null;
}

/** `content` without its import statements of `target`; unchanged when it has none. */
export function withoutImportsOf(
  content: string,
  importer: string,
  target: string,
  paths: ReadonlySet<string>,
): string {
  return content.replace(STATEMENT, (statement, _q, spec: string) =>
    resolveImport(paths, importer, spec) === target ? "" : statement,
  );
}

export type ReferenceUpdate = { path: string; content: string; revision?: string };

/**
 * The files that import `target`, each with its import statements of it removed (the rest of
 * the file as it was: a use of what it imported is left for the builder or the chat to fix).
 */
export function referencesTo(
  files: readonly { path: string; content: string; revision?: string }[],
  target: string,
): ReferenceUpdate[] {
  const paths = new Set(files.map((f) => f.path));
  const out: ReferenceUpdate[] = [];
  for (const f of files) {
    if (f.path === target || f.path.endsWith(".json")) continue;
    const content = withoutImportsOf(f.content, f.path, target, paths);
    if (content !== f.content) out.push({ path: f.path, content, revision: f.revision });
  }
  return out;
}
