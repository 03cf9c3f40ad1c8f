import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { breaches, cycleEdges, folderGraph } from "./layers-rule";

// npm run layers (and the "layers" step of npm test) - the import rule of the code base:
//
//   app/ (pages and routes) → components/ → lib/ (the domains) → db/
//
// Arrows point down only: db/ imports nothing of lib/ but its kernel (KERNEL), lib/ nothing of
// components/ or app/, components/ nothing of app/, and app/ reads data through lib/ (where the
// rules are), never db/ itself. And no folder (lib/<domain>, components/<folder>, db/<folder>)
// imports another that imports it back, directly or around a circle.
//
// The imports are read by esbuild (already here for space-app previews), which resolves the
// tsconfig paths as the build does: dependency-cruiser, the usual tool, parses TypeScript with the
// `typescript` package's compiler API, which TypeScript 7 no longer ships (docs/architecture.md,
// "The layer rule"). Type-only imports leave no trace in the output and are not checked.
//
// docs/layers.md draws the folder graph; the check fails when it is not the code's any more, and
// `npm run layers -- --graph` redraws it.

const ROOTS = ["lib", "db", "components", "app"];
const EXTRA_FILES = ["proxy.ts", "instrumentation.ts"];
const GRAPH_FILE = "docs/layers.md";

function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (/\.(ts|tsx|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) files.push(p);
    }
  };
  for (const root of ROOTS) walk(root);
  return [...files, ...EXTRA_FILES.filter((f) => fs.existsSync(f))];
}

/** Every import between our own files, as [from, to] paths relative to the repository. */
async function importEdges(): Promise<[string, string][]> {
  const result = await build({
    entryPoints: sourceFiles(),
    bundle: true,
    write: false,
    metafile: true,
    outdir: ".data/layers-out",
    platform: "node",
    format: "esm",
    packages: "external",
    jsx: "automatic",
    logLevel: "silent",
    loader: { ".css": "empty", ".png": "empty", ".svg": "empty", ".woff2": "empty" },
  });
  const edges: [string, string][] = [];
  for (const [from, input] of Object.entries(result.metafile.inputs)) {
    for (const imported of input.imports) if (!imported.external) edges.push([from, imported.path]);
  }
  return edges;
}

function mermaid(graph: Map<string, Set<string>>): string {
  const id = (folder: string) => folder.replace(/[^a-zA-Z0-9]/g, "_");
  const lines = ["```mermaid", "flowchart TD"];
  const layers: [string, RegExp][] = [
    ["app", /^app$/],
    ["components", /^components\//],
    ["lib", /^lib\//],
    ["db", /^db\//],
  ];
  for (const [name, match] of layers) {
    lines.push(`  subgraph ${name}_layer [${name}]`);
    for (const folder of [...graph.keys()].filter((f) => match.test(f)).sort()) {
      lines.push(`    ${id(folder)}["${folder}"]`);
    }
    lines.push("  end");
  }
  for (const from of [...graph.keys()].sort()) {
    for (const to of [...graph.get(from)!].sort()) lines.push(`  ${id(from)} --> ${id(to)}`);
  }
  lines.push("```");
  return lines.join("\n");
}

async function main(): Promise<number> {
  const edges = await importEdges();
  const graph = folderGraph(edges);
  const cycles = cycleEdges(graph);
  const picture = [
    "# Layers: which folder imports which",
    "",
    "Written by `npm run layers -- --graph` (scripts/layers.ts) from the imports esbuild resolves: an",
    'arrow is at least one import. The rule is in [architecture.md, "The layer rule"](architecture.md#the-layer-rule).',
    "",
    mermaid(graph),
    "",
  ].join("\n");
  if (process.argv.includes("--graph")) {
    fs.writeFileSync(GRAPH_FILE, picture);
    console.log(`layers: ${GRAPH_FILE} written`);
  }
  const found = [...breaches(edges), ...cycles.map((c) => `${c} (folders that import each other)`)];
  // The picture in the docs is the code's: a new arrow between folders redraws it.
  const drawn = fs.existsSync(GRAPH_FILE) ? fs.readFileSync(GRAPH_FILE, "utf8") : "";
  if (drawn !== picture)
    found.push(`${GRAPH_FILE} is not the folder graph of the code any more: npm run layers -- --graph`);
  for (const f of found) console.error(`layers: breaks the import rule: ${f}`);
  if (found.length) {
    console.error(`layers: ${found.length} breach(es) of the import rule (scripts/layers.ts)`);
    return 1;
  }
  console.log(`layers: ${edges.length} imports between ${graph.size} folders follow the import rule`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
