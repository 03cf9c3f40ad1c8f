import "server-only";
import fs from "node:fs/promises";
import path from "node:path";
import { compile } from "tailwindcss";

// Tailwind CSS for the preview: the assistant writes apps styled with Tailwind's classes, so a
// stylesheet that imports "tailwindcss" is compiled here, from memory, against the classes the
// app's files use. Tailwind's own stylesheets come from our node_modules; an app's stylesheet may
// import its own files and nothing else (no plugins, no configs: they would run code on the server).

/** Does a stylesheet ask for Tailwind? `@import "tailwindcss"` (v4) or `@tailwind ...` (v3). */
export function usesTailwind(css: string): boolean {
  return (
    /@import\s+(?:url\()?\s*["']tailwindcss(?:\/[a-z]+(?:\.css)?)?["']/.test(css) ||
    /@tailwind\s+\w+/.test(css)
  );
}

// v3's directives, written by habit: the v4 import gives the same base, components and utilities.
function upgradeDirectives(css: string): string {
  if (!/@tailwind\s+\w+/.test(css)) return css;
  const rest = css.replace(/@tailwind\s+[\w-]+\s*;?/g, "");
  return usesTailwind(rest) ? rest : `@import "tailwindcss";\n${rest}`;
}

const TAILWIND_FILES: Record<string, string> = {
  tailwindcss: "index.css",
  "tailwindcss/index.css": "index.css",
  "tailwindcss/preflight": "preflight.css",
  "tailwindcss/preflight.css": "preflight.css",
  "tailwindcss/theme": "theme.css",
  "tailwindcss/theme.css": "theme.css",
  "tailwindcss/utilities": "utilities.css",
  "tailwindcss/utilities.css": "utilities.css",
};
const TAILWIND_OWN = new Set(Object.values(TAILWIND_FILES));

const tailwindDir = () => path.join(process.cwd(), "node_modules", "tailwindcss");
const ownCache = new Map<string, string>();

async function readOwn(name: string): Promise<string> {
  let text = ownCache.get(name);
  if (text === undefined) {
    text = await fs.readFile(path.join(tailwindDir(), name), "utf8");
    ownCache.set(name, text);
  }
  return text;
}

/** Marks the app's folders among the bases Tailwind hands back, so they never name a real folder. */
const APP_BASE = "\0app:";

export class TailwindImportError extends Error {
  constructor(readonly specifier: string) {
    super(specifier);
  }
}

/**
 * Compiles one stylesheet of the app. `path` is its place among the app's files; `readFile`
 * gives another file of the app (its relative @imports); `candidates` are the words of the app's
 * source files, of which Tailwind keeps those that are classes.
 */
export async function compileTailwind(
  cssPath: string,
  css: string,
  readFile: (p: string) => string | undefined,
  candidates: string[],
): Promise<string> {
  const compiler = await compile(upgradeDirectives(css), {
    base: APP_BASE + path.posix.dirname(cssPath),
    loadStylesheet: async (id: string, base: string) => {
      const own = TAILWIND_FILES[id];
      if (own) return { path: own, base: tailwindDir(), content: await readOwn(own) };
      if (base === tailwindDir() && id.startsWith("./") && TAILWIND_OWN.has(id.slice(2))) {
        return { path: id.slice(2), base, content: await readOwn(id.slice(2)) };
      }
      if (base.startsWith(APP_BASE) && (id.startsWith("./") || id.startsWith("../"))) {
        const resolved = path.posix.normalize(path.posix.join(base.slice(APP_BASE.length), id));
        const content = resolved.startsWith("../") ? undefined : readFile(resolved);
        if (content !== undefined) {
          return { path: resolved, base: APP_BASE + path.posix.dirname(resolved), content };
        }
      }
      throw new TailwindImportError(id);
    },
    loadModule: async (id: string) => {
      throw new TailwindImportError(id);
    },
  });
  return compiler.build(candidates);
}

const MAX_CANDIDATES = 100_000;
const CANDIDATE = /^[!-~]{1,120}$/;

/** The words of the app's source files that may be classes (Tailwind ignores the rest). */
export function scanCandidates(sources: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const source of sources) {
    for (const word of source.split(/[\s"'`{}<>;\\]+/)) {
      if (!CANDIDATE.test(word)) continue;
      out.add(word);
      if (out.size >= MAX_CANDIDATES) return [...out];
    }
  }
  return [...out];
}
