import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import * as esbuild from "esbuild";
import { hashContent } from "@/lib/space/files";
import { buildPreview, type SourceFiles } from "@/lib/space/preview/build";
import { clearPreviewCache, previewKey, withPreviewCache } from "@/lib/space/preview/cache";
import { previewVendor } from "@/lib/space/preview/vendor";
import { median, percentile } from "./stats";

// The preview benchmark of space apps ("time to build a version's preview bundle of
// 50 files"), figures only, never pass/fail, each against a baseline measured in this run:
//  - baseline: esbuild bundling the same 50 files from a directory on disk (JSX, React left
//    external, the stylesheet as it is): what a plain bundler costs for this app;
//  - cold: our build of a version never built before (lib/space/preview/build.ts: the files from
//    memory through the resolving plugin, the runtime and router, Tailwind compiled against the
//    app's classes); the files differ in every run, so nothing is reused;
//  - cached: asking again for a version already built (the cache key over the tree's paths and
//    hashes, and the lookup), as the second request of the same version does;
//  - first use in a process (esbuild's service, the React vendor script, Tailwind's stylesheets):
//    paid once per server process, shown apart.
//
// Alone: node --conditions=react-server --import tsx bench/space-preview.ts
// (no database: the build works on a version's files). BENCH_PREVIEW_RUNS (default 10).

const RUNS = Number(process.env.BENCH_PREVIEW_RUNS ?? 10);
const log = (line = "") => console.log(line);
const ms = (x: number) => `${x.toFixed(1)} ms`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

const COLORS = ["blue", "emerald", "rose", "amber", "slate", "violet"];

/** A 50-file app as the assistant writes one: 10 pages, 30 components, 7 helpers, a layout, a stylesheet, an entity. */
function app(run: number): SourceFiles {
  const files: SourceFiles = new Map();
  const component = (i: number) => `Widget${i}`;
  for (let i = 0; i < 30; i++) {
    const color = COLORS[i % COLORS.length];
    const helper = `helper${i % 7}`;
    files.set(
      `components/${component(i)}.jsx`,
      `// run ${run}
import { useMemo, useState } from "react";
import { ${helper} } from "@/services/${helper}";

export default function ${component(i)}({ title = "Widget ${i}", items = [] }) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const shown = useMemo(() => items.filter((it) => ${helper}(it).includes(query)), [items, query]);
  return (
    <section className="rounded-xl border border-${color}-200 bg-white p-4 shadow-sm md:p-6">
      <header className="flex items-center justify-between gap-2">
        <h2 className="text-lg font-semibold text-${color}-900">{title}</h2>
        <button type="button" onClick={() => setOpen(!open)} className="rounded-md bg-${color}-600 px-3 py-1.5 text-sm text-white hover:bg-${color}-700">
          {open ? "Hide" : "Show"}
        </button>
      </header>
      <input value={query} onChange={(e) => setQuery(e.target.value)} className="mt-3 w-full rounded border px-2 py-1 text-sm" />
      {open && (
        <ul className="mt-4 grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-${(i % 4) + 1}">
          {shown.map((it) => (
            <li key={it.id} className="truncate rounded bg-${color}-50 px-2 py-1 text-${color}-800">{it.name}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
`,
    );
  }
  for (let i = 0; i < 7; i++) {
    files.set(
      `services/helper${i}.js`,
      `// run ${run}
export function helper${i}(item) {
  const parts = [item.name, item.kind, String(item.id)].filter(Boolean);
  return parts.map((p) => p.toLowerCase().trim()).join(" ${i} ");
}
`,
    );
  }
  for (let p = 0; p < 10; p++) {
    const uses = [0, 1, 2].map((k) => component((p * 3 + k) % 30));
    files.set(
      `pages/Page${p}.jsx`,
      `// run ${run}
${uses.map((c) => `import ${c} from "@/components/${c}";`).join("\n")}
import task from "@/entities/Task.json";

const items = Array.from({ length: 12 }, (_, id) => ({ id, name: task.name + " " + id, kind: "page${p}" }));

export default function Page${p}() {
  return (
    <main className="mx-auto max-w-5xl space-y-6 p-6">
      <h1 className="text-3xl font-bold tracking-tight">Page ${p}</h1>
${uses.map((c) => `      <${c} items={items} />`).join("\n")}
    </main>
  );
}
`,
    );
  }
  files.set(
    "Layout.jsx",
    `export default function Layout({ children, currentPageName }) {
  return (
    <div className="min-h-screen bg-slate-50">
      <nav className="flex gap-4 border-b bg-white px-6 py-3">{currentPageName}</nav>
      {children}
    </div>
  );
}
`,
  );
  files.set(
    "globals.css",
    `@import "tailwindcss";\n/* run ${run} */\nbody { font-family: system-ui, sans-serif; }\n`,
  );
  files.set("entities/Task.json", JSON.stringify({ name: "Task", type: "object", properties: {} }));
  return files;
}

/** The same files on disk, bundled by esbuild alone: entry = every page. */
async function baselineBuild(dir: string): Promise<number> {
  const started = performance.now();
  const pages = (await fs.readdir(path.join(dir, "pages"))).map((f) => `./pages/${f}`);
  const entry = `import "./globals.css";\n${pages.map((p, i) => `import * as P${i} from "${p}";`).join("\n")}\nexport const pages = [${pages.map((_, i) => `P${i}`).join(", ")}];\n`;
  await esbuild.build({
    stdin: { contents: entry, resolveDir: dir, loader: "js" },
    bundle: true,
    write: false,
    outdir: path.join(dir, "out"),
    format: "iife",
    jsx: "automatic",
    loader: { ".js": "jsx" },
    alias: { "@": dir },
    external: ["react", "react/jsx-runtime", "react-dom", "tailwindcss"],
    minifyWhitespace: true,
    logLevel: "silent",
  });
  return performance.now() - started;
}

async function writeApp(dir: string, files: SourceFiles): Promise<void> {
  for (const [p, content] of files) {
    await fs.mkdir(path.join(dir, path.dirname(p)), { recursive: true });
    await fs.writeFile(path.join(dir, p), content);
  }
}

async function main() {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "bench-preview-"));
  try {
    const sample = app(0);
    const bytes = [...sample.values()].reduce((n, c) => n + Buffer.byteLength(c), 0);
    log(
      `bench (space preview): a ${sample.size}-file app of ${(bytes / 1024).toFixed(1)} KB, ${RUNS} runs each`,
    );

    // First use in this process: esbuild's service, the vendor script, Tailwind's stylesheets.
    let started = performance.now();
    await previewVendor();
    const vendorMs = performance.now() - started;
    started = performance.now();
    const first = await buildPreview(app(-1));
    const firstMs = performance.now() - started;
    if (!first.ok) throw new Error(`the benchmark's app does not build: ${JSON.stringify(first.issues)}`);

    await writeApp(dir, sample);
    await baselineBuild(dir); // warm the file cache
    const baseline: number[] = [];
    const cold: number[] = [];
    const cached: number[] = [];
    for (let run = 1; run <= RUNS; run++) {
      baseline.push(await baselineBuild(dir));
      const files = app(run);
      const tree = new Map([...files].map(([p, c]) => [p, hashContent(c)]));
      clearPreviewCache();
      started = performance.now();
      const built = await withPreviewCache(previewKey(tree), () => buildPreview(files));
      cold.push(performance.now() - started);
      if (built.cached || !built.build.ok) throw new Error("a cold build must build, and succeed");
      started = performance.now();
      const again = await withPreviewCache(previewKey(tree), () => buildPreview(files));
      cached.push(performance.now() - started);
      if (!again.cached) throw new Error("the second request must come from the cache");
    }
    const base = median(baseline);
    log("");
    log(`space preview: building a version's preview bundle of ${sample.size} files`);
    log(
      `  baseline, esbuild from disk (React external, no Tailwind): p50 ${ms(base)}, p90 ${ms(percentile(baseline, 90))}`,
    );
    log(
      `  cold (from memory, runtime, Tailwind): p50 ${ms(median(cold))} = ${ratio(median(cold), base)} baseline, p90 ${ms(percentile(cold, 90))}`,
    );
    log(
      `  cached (second request of the version): p50 ${ms(median(cached))} = ${ratio(median(cached), base)} baseline, p90 ${ms(percentile(cached, 90))}`,
    );
    log(
      `  first use in a process: React vendor script ${ms(vendorMs)} (once), first build ${ms(firstMs)} = ${ratio(firstMs, base)} baseline`,
    );
    if (first.ok) {
      const kb = (s: string) => `${(Buffer.byteLength(s) / 1024).toFixed(1)} KB`;
      log(
        `  bundle: script ${kb(first.js)}, stylesheet ${kb(first.css)} (+ React ${kb((await previewVendor()).js)}, shared)`,
      );
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
    await esbuild.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
